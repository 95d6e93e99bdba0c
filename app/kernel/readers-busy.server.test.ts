import { describe, expect, it } from 'vitest';
import { giveWay, type ReadersSignal } from './readers-busy.server';

/** Readers busy for their first `busyAsks` asks, calm after; they count the asks. */
function readers(busyAsks: number): ReadersSignal & { asks: number } {
  return {
    asks: 0,
    start() {},
    busy() {
      return ++this.asks <= busyAsks;
    },
  };
}

describe('giving way to readers (docs/decisions/097)', () => {
  it('does not wait when readers are calm', async () => {
    const calm = readers(0);
    expect(await giveWay(calm, 1_000)).toBe(false);
    expect(calm.asks).toBe(1);
  });

  it('waits while they are busy, and stops waiting as soon as they calm', async () => {
    // Long work (a wait of up to GIVE_WAY_MAX_MS) ended by the lull at the third ask.
    const leaving = readers(2);
    expect(await giveWay(leaving, 1_000)).toBe(true);
    expect(leaving.asks).toBe(3);
  });

  it('never waits past the end of a part', async () => {
    const busy = readers(Infinity);
    expect(await giveWay(busy, 1_000, Date.now() - 1)).toBe(false);
  });
});
