import { describe, expect, it } from 'vitest';
import { readingTime } from './reading-time';

describe('readingTime', () => {
  it('is at least one minute and rounds to the nearest minute at 230 words a minute', () => {
    expect(readingTime('')).toBe('1 min read');
    expect(readingTime('# Title\n\n- one\n- two')).toBe('1 min read');
    expect(readingTime(Array.from({ length: 460 }, () => 'word').join(' '))).toBe('2 min read');
    expect(readingTime(Array.from({ length: 1000 }, () => 'word').join(' \n'))).toBe('4 min read');
  });
});
