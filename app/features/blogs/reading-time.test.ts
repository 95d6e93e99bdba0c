import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countWords, readingTime } from './reading-time';

describe('readingTime', () => {
  it('is at least one minute and rounds to the nearest minute at 230 words a minute', () => {
    expect(readingTime('')).toBe('1 min read');
    expect(readingTime('# Title\n\n- one\n- two')).toBe('1 min read');
    expect(readingTime(Array.from({ length: 460 }, () => 'word').join(' '))).toBe('2 min read');
    expect(readingTime(Array.from({ length: 1000 }, () => 'word').join(' \n'))).toBe('4 min read');
  });

  it('counts what splitting at whitespace and keeping the pieces with a word character counts', () => {
    const bySplit = (text: string) => text.split(/\s+/).filter((word) => /\w/.test(word)).length;
    // Words, punctuation, Markdown marks and every kind of space JavaScript's \s knows.
    const piece = fc.constantFrom('word', 'Zoë', '—', '--', '#', '**', '_', '9', 'naïve', '日本', ' ', '\n', '\t', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff', '\u200b', '\u0085');
    fc.assert(fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => countWords(pieces.join('')) === bySplit(pieces.join(''))), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => countWords(text) === bySplit(text)), { numRuns: 2000 });
  });
});
