import { tallies } from '~/lib/render/metrics.server';

/**
 * Deliveries give way to readers (docs/decisions/089, 094). Each delivery signs and sends on the
 * thread that answers pages, so while requests come fast, one delivery at a time goes, a new one
 * starting at most every PACED_GAP_MS; when they calm, the runner's full number go again.
 */

/** Requests answered per second above which the site counts as busy with readers. */
export const BUSY_REQUESTS_PER_S = 100;
/** How far back "busy" looks: a burst of readers is seen within this, not a second later. */
export const BUSY_WINDOW_MS = 250;
/**
 * Busy stays so this long after the rate was last above it: a pause of this process (a long
 * garbage collection, a machine that gives it no CPU for a moment) is no lull of readers.
 */
export const CALM_AFTER_MS = 1_000;
/** Deliveries under way at once while busy. */
export const PACED_DELIVERIES = 1;
/** While busy, a delivery starts at most this long after the one before: at most ten a second. */
export const PACED_GAP_MS = 100;
/**
 * A delivery held this long goes anyway: the ones ahead of it are waiting on their servers, not
 * on the thread. It bounds a claimed job's wait far inside its lease (server/jobs/runner.server.ts).
 */
export const PACED_WAIT_MAX_MS = 30_000;

const TICK_MS = 50;
const SAMPLES = BUSY_WINDOW_MS / TICK_MS;

/**
 * Requests this process answered lately (every request: the chain's, and the kept pages answered
 * before it), sampled every TICK_MS into a ring of the last BUSY_WINDOW_MS. Busy when at least
 * BUSY_REQUESTS_PER_S's share of BUSY_WINDOW_MS were answered since the oldest sample, checked at
 * each sample and whenever a delivery asks, with the count of now: the first requests of a burst
 * count at once. It stays busy CALM_AFTER_MS after that was last true.
 */
function recentRequests(answered: () => number) {
  const ring = new Float64Array(SAMPLES);
  let next = 0;
  let busyUntil = -Infinity;
  let ticker: NodeJS.Timeout | null = null;
  const check = () => {
    const now = performance.now();
    if ((answered() - ring[next]!) * 1000 >= BUSY_REQUESTS_PER_S * BUSY_WINDOW_MS) busyUntil = now + CALM_AFTER_MS;
    return now < busyUntil;
  };
  return {
    start() {
      if (ticker) return;
      ring.fill(answered());
      ticker = setInterval(() => {
        check();
        ring[next] = answered();
        next = (next + 1) % SAMPLES;
      }, TICK_MS).unref();
    },
    busy() {
      this.start();
      return check();
    },
  };
}

/** One process's pacer of deliveries; `concurrency` is the most at once when not busy. */
export function deliveryPacer(concurrency: number, readers = recentRequests(() => tallies.requests.answered)) {
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
