import { describe, expect, it } from 'vitest';
import { roundedDown, siteFigures } from './site-figures';

describe('the home page figures', () => {
  it('never claim more than is true: two significant digits, + only when digits were dropped', () => {
    expect([0, 7, 60, 99, 100, 101, 163, 8000, 8042, 24_312, 1_234_567].map((n) => roundedDown(n))).toEqual([
      { end: 0, suffix: '' },
      { end: 7, suffix: '' },
      { end: 60, suffix: '' },
      { end: 99, suffix: '' },
      { end: 100, suffix: '' },
      { end: 100, suffix: '+' },
      { end: 160, suffix: '+' },
      { end: 8000, suffix: '' },
      { end: 8000, suffix: '+' },
      { end: 24_000, suffix: '+' },
      { end: 1_200_000, suffix: '+' },
    ]);
  });

  it("keep the product's four labels, with the share of members who published as the share rate", () => {
    expect(siteFigures({ blogs: 24_312, writers: 63, members: 90, subscribers: 8042 })).toEqual([
      { label: 'Total Blog', end: 24_000, suffix: '+' },
      { label: 'Share rate', end: 70, suffix: '%' },
      { label: 'Subscriber', end: 8000, suffix: '+' },
      { label: 'Active Blogger', end: 63, suffix: '' },
    ]);
    expect(siteFigures({ blogs: 0, writers: 0, members: 0, subscribers: 0 }).map((f) => `${f.end}${f.suffix}`)).toEqual(['0', '0%', '0', '0']);
  });
});
