import { readersHere, TICK_MS } from '~/kernel/readers-busy.server';

/**
 * Deliveries give way to readers (docs/decisions/089, 094). Each delivery signs and sends on the
 * thread that answers pages, so while readers are here (the kernel's one signal,
 * ~/kernel/readers-busy.server), one delivery at a time goes, a new one starting at most every
 * PACED_GAP_MS; when they calm, the runner's full number go again.
 */

/** Deliveries under way at once while busy. */
export const PACED_DELIVERIES = 1;
/** While busy, a delivery starts at most this long after the one before: at most four a second (decision 101). */
export const PACED_GAP_MS = 250;
/**
 * A delivery held this long goes anyway: the ones ahead of it are waiting on their servers, not
 * on the thread. It bounds a claimed job's wait far inside its lease (server/jobs/runner.server.ts).
 */
export const PACED_WAIT_MAX_MS = 30_000;

/** One process's pacer of deliveries; `concurrency` is the most at once when not busy. */
export function deliveryPacer(concurrency: number, readers = readersHere) {
  let running = 0;
  let lastStart = -Infinity;
  /** The waiting deliveries, each woken by a delivery's end or its own timer, whichever comes first. */
  const waiting = new Set<() => void>();
  const changed = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
    });
  return {
    /** Starts the sampling (at federation's start), so the first delivery knows the recent past. */
    start: () => readers.start(),
    /** Runs `deliver` when a slot is free; never holds it past PACED_WAIT_MAX_MS. */
    async run<T>(deliver: () => Promise<T>): Promise<T> {
      const since = performance.now();
      for (;;) {
        const now = performance.now();
        if (now - since >= PACED_WAIT_MAX_MS) break;
        const busy = readers.busy();
        const gap = busy ? lastStart + PACED_GAP_MS - now : 0;
        if (running < (busy ? PACED_DELIVERIES : concurrency) && gap <= 0) break;
        // Asked again when a delivery ends, its gap is over, or readers may have left.
        await changed(Math.max(gap, TICK_MS));
      }
      running++;
      lastStart = performance.now();
      try {
        return await deliver();
      } finally {
        running--;
        for (const wake of [...waiting]) wake();
      }
    },
  };
}
