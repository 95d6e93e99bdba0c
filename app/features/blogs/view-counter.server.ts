import { createHash, createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { Database } from '~/db/schema';
import { addViews } from './blogs.repo.server';

/** How often buffered views are written at most: the most a kill -9 can lose (decision 024). */
export const VIEW_FLUSH_MS = 5_000;

/**
 * A view must show on a kept page within `maxAgeMs` (COUNTS_MAX_AGE_S, 30 s by default): it is
 * written within `flushMs`, and a kept page showing counts is rendered again after `keptMs`.
 */
export function countsFreshness(maxAgeMs: number): { flushMs: number; keptMs: number } {
  const flushMs = Math.min(VIEW_FLUSH_MS, Math.floor(maxAgeMs / 6));
  return { flushMs, keptMs: maxAgeMs - flushMs };
}

/** The share of `keptMs` a kept page's own bound may fall short of it by (decision 099). */
export const KEPT_SPREAD = 0.2;

/**
 * How long one kept page showing counts is kept: `keptMs` less up to KEPT_SPREAD of it, drawn per
 * page. Pages rendered together (after a start, or a change every page shows) would otherwise age
 * out together, every bound, in a burst of renders; spread, they drift apart. Never longer than
 * `keptMs`, so a count is never shown older than the age bound.
 */
export function keptSpan(keptMs: number, random: () => number = Math.random): number {
  return keptMs - Math.floor(keptMs * KEPT_SPREAD * random());
}
/** Blogs per UPDATE: keeps one statement's parameters well under SQLite's limit. */
const FLUSH_CHUNK = 500;
/** Remembered (visitor, blog) pairs of the day per instance when there is no shared store. */
const MEMORY_MARKS = 100_000;
const DAY_MS = 86_400_000;

/**
 * Where "this visitor already counted this blog today" is remembered: the rate-limit store's
 * shape, so Redis (REDIS_URL) shares the marks between instances; a first hit has count 1.
 */
export interface ViewMarks {
  hit(key: string, windowMs: number): Promise<{ count: number }>;
  close?(): Promise<void>;
}

/**
 * A pair as 16 bytes of its SHA-256 in a 16-character string: at the bound the marks take about
 * 10 MB of heap instead of 71 MB for the full keys (measured, 100,000 marks); telling two pairs
 * apart by 128 bits, a collision is out of reach.
 */
const markOf = (key: string) => createHash('sha256').update(key).digest().toString('latin1', 0, 16);

/** One instance's marks, bounded: past the bound the oldest pair may count a second time. */
export function memoryViewMarks(now: () => number = Date.now): ViewMarks {
  const marks = new LRUCache<string, true>({ max: MEMORY_MARKS, ttlAutopurge: false, perf: { now } });
  return {
    async hit(pair, windowMs) {
      const key = markOf(pair);
      if (marks.has(key)) return { count: 2 };
      marks.set(key, true, { ttl: windowMs });
      return { count: 1 };
    },
  };
}

export interface ViewCounterOptions {
  db: Kysely<Database>;
  log: Logger;
  marks: ViewMarks;
  /** Derives the daily salt; never stored or sent. */
  secret: string;
  now: () => Date;
  flushMs?: number;
}

/**
 * Views counted at most once per visitor and blog a day, added up in memory and written every
 * few seconds in one statement, so views can neither empty caches nor flood the database
 * (docs/decisions/024). A visitor without an
 * account is a hash of address and user agent with the day's salt, so no address is kept.
 */
export class ViewCounter {
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<number> = Promise.resolve(0);

  constructor(private readonly options: ViewCounterOptions) {
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? VIEW_FLUSH_MS);
    this.timer.unref();
  }

  /** The day a view belongs to (UTC) and the milliseconds left in it. */
  private today(): { day: string; left: number } {
    const now = this.options.now().getTime();
    return { day: new Date(now).toISOString().slice(0, 10), left: DAY_MS - (now % DAY_MS) };
  }

  /** A visitor without an account, as the day's salt hides it: the same all day, unlinkable across days. */
  anonymousVisitor(address: string, userAgent: string): string {
    const salt = createHmac('sha256', this.options.secret).update(`views:${this.today().day}`).digest();
    return `a:${createHash('sha256').update(salt).update(address).update('\n').update(userAgent).digest('base64url').slice(0, 22)}`;
  }

  /** True when this is the visitor's first view of the blog today; then it is buffered. */
  async count(visitor: string, blogId: string): Promise<boolean> {
    const { day, left } = this.today();
    const { count } = await this.options.marks.hit(`view:${day}:${visitor}:${blogId}`, left);
    if (count !== 1) return false;
    // Keyed by day too: views counted before midnight and flushed after it stay on their own day.
    const key = `${day} ${blogId}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    return true;
  }

  /** Views counted but not yet written (/metrics and the instance page show it). */
  get buffered(): number {
    let views = 0;
    for (const n of this.pending.values()) views += n;
    return views;
  }

  /** Writes what is buffered; on failure (database away) the counts wait for the next flush. */
  flush(): Promise<number> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return 0;
      const batch = [...this.pending];
      this.pending = new Map();
      const byDay = new Map<string, [string, number][]>();
      for (const [key, n] of batch) {
        const [day = '', blogId = ''] = key.split(' ');
        byDay.set(day, [...(byDay.get(day) ?? []), [blogId, n]]);
      }
      let written = 0;
      for (const [day, counts] of byDay) {
        for (let i = 0; i < counts.length; i += FLUSH_CHUNK) {
          const chunk = counts.slice(i, i + FLUSH_CHUNK);
          try {
            await addViews(this.options.db, day, chunk);
            written += chunk.reduce((sum, [, n]) => sum + n, 0);
          } catch (error) {
            for (const [id, n] of chunk) this.pending.set(`${day} ${id}`, (this.pending.get(`${day} ${id}`) ?? 0) + n);
            this.options.log.warn({ err: error, blogs: chunk.length }, 'view counts not written; retrying at the next flush');
          }
        }
      }
      return written;
    });
    return this.flushing;
  }

  /** At shutdown, before the database closes: nothing counted is lost on SIGTERM. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    await this.options.marks.close?.();
  }
}
