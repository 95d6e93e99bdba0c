import { describe, expect, it } from 'vitest';
import { countsFreshness, KEPT_SPREAD, keptSpan } from './view-counter.server';

describe('keptSpan: how long one kept page showing counts is kept', () => {
  const { keptMs } = countsFreshness(30_000);

  it('is the whole bound at most and falls short of it by KEPT_SPREAD at most', () => {
    expect(keptSpan(keptMs, () => 0)).toBe(keptMs);
    expect(keptSpan(keptMs, () => 0.999_999)).toBeGreaterThanOrEqual(Math.floor(keptMs * (1 - KEPT_SPREAD)));
    expect(keptSpan(keptMs, () => 0.5)).toBe(keptMs - Math.floor(keptMs * KEPT_SPREAD * 0.5));
  });

  it('differs from page to page, so pages rendered together do not age out together', () => {
    const spans = Array.from({ length: 500 }, () => keptSpan(keptMs));
    expect(Math.max(...spans)).toBeLessThanOrEqual(keptMs);
    expect(Math.min(...spans)).toBeGreaterThanOrEqual(keptMs * (1 - KEPT_SPREAD));
    // 500 pages over a fifth of 25 s: a burst spread over seconds, not one instant.
    expect(Math.max(...spans) - Math.min(...spans)).toBeGreaterThan(keptMs * KEPT_SPREAD * 0.5);
  });
});
