import { setTimeout as sleep } from 'node:timers/promises';
import { tallies } from '~/lib/render/metrics.server';

/**
 * "Readers are here" (docs/decisions/094, 097): the one signal the background work that shares
 * the thread answering pages asks before it takes more of it. Deliveries go one at a time while
 * it holds (app/features/federation/delivery-pacing.server.ts); an import writes one item and
 * then waits (`giveWay` below).
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
/** How often the signal samples the count. */
export const TICK_MS = 50;
const SAMPLES = BUSY_WINDOW_MS / TICK_MS;

export interface ReadersSignal {
  /** Starts the sampling, so the first question knows the recent past. */
  start(): void;
  busy(): boolean;
}

/**
 * Requests this process answered lately (every request: the chain's, and the kept pages answered
 * before it), sampled every TICK_MS into a ring of the last BUSY_WINDOW_MS. Busy when at least
 * BUSY_REQUESTS_PER_S's share of BUSY_WINDOW_MS were answered since the oldest sample, checked at
 * each sample and whenever a worker asks, with the count of now: the first requests of a burst
 * count at once. It stays busy CALM_AFTER_MS after that was last true.
 */
export function recentRequests(answered: () => number): ReadersSignal {
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

/** The process's one signal, over every request it answers. */
export const readersHere: ReadersSignal = recentRequests(() => tallies.requests.answered);

/**
 * While busy, work that gives way takes at most this share of the thread's time: after a piece
 * of work it waits (1 − share) / share of that work's time, about 6× (docs/decisions/097).
 */
export const BUSY_WORK_SHARE = 0.15;
/** A wait after one piece of work is at most this long, however long the piece took. */
export const GIVE_WAY_MAX_MS = 2_000;

/**
 * After a piece of work that took `workedMs`, waits its share while readers are busy (asked
 * again every TICK_MS, so a lull of readers ends the wait early); never past `until` (a job's
 * part ends within its slice; `until` is a time as Date.now() tells it). Answers whether it waited.
 */
export async function giveWay(readers: ReadersSignal, workedMs: number, until = Infinity): Promise<boolean> {
  if (!readers.busy()) return false;
  const wait = Math.min((workedMs * (1 - BUSY_WORK_SHARE)) / BUSY_WORK_SHARE, GIVE_WAY_MAX_MS, until - Date.now());
  const end = performance.now() + wait;
  let waited = false;
  for (let left = end - performance.now(); left > 0 && readers.busy(); left = end - performance.now()) {
    await sleep(Math.min(left, TICK_MS));
    waited = true;
  }
  return waited;
}
