import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { readContentVersions } from '~/db/content-version.server';
import type { Database } from '~/db/schema';
import { tallies } from './metrics.server';

/**
 * The values an instance keeps to spare a query, a count or a listing, in one place
 * (docs/decisions/055). Each is declared here with its name (its label in /metrics), how its
 * freshness is decided and how many entries it holds; product code asks `kept(…)` and holds no
 * cache of its own. One keying style: the owner the value was read from (a database handle, an
 * image store: tests run several apps in one process, each with its own) and a key made by
 * `keyOf(…)`. Freshness is one of:
 * - `follows: 'lists'`: kept while the database's `lists` version stands, which the freshness
 *   triggers move on every change a list shows (app/db/freshness.ts); the owner is the database;
 * - `maxAgeMs`: kept at most this long by the caller's clock (a test's clock moves it too);
 * - `byInput`: a pure function of its key (an edit is a new key), so nothing goes stale; bounded
 *   by the bytes of its text values and keys, for the whole process.
 * The whole-answer caches have their own homes beside what they serve, on the same versions:
 * anonymous reads (server/http/middleware/page-cache.server.ts), signed-in renders
 * (render-memo.server.ts) and sessions (server/context.server.ts).
 */
type Freshness = { follows: 'lists' } | { maxAgeMs: number } | { byInput: true };

export const CACHES = {
  /** Public blog counts per list filter: counting is linear in the blogs (about 20 ms for 100,000 on SQLite) and every list page needs one. */
  blog_counts: { freshness: { follows: 'lists' }, max: 256 },
  /** The home page's counted figures (decisions 031, 051): signed-in home pages are never kept whole, and must not run four counts each. */
  site_figures: { freshness: { maxAgeMs: 30_000 }, max: 1 },
  /**
   * Whether a viewer may open /moderation, for the user menu's link only: /moderation and every
   * action check the role themselves, so a link shown or missing for up to this long after a
   * grant or revoke lets nobody do anything. It spares every signed-in page a query.
   */
  menu_roles: { freshness: { maxAgeMs: 30_000 }, max: 10_000 },
  /** The image store's totals on the instance page: listing costs a stat (or an S3 page) per thousand images. */
  image_totals: { freshness: { maxAgeMs: 60_000 }, max: 1 },
  /**
   * Blog bodies rendered from Markdown, by the Markdown and the render's options: parsing and
   * sanitising were about a tenth of a signed-in blog page's CPU, and the same few popular bodies
   * are read again and again.
   */
  markdown_html: { freshness: { byInput: true }, max: 100_000, maxBytes: 8 * 1024 * 1024 },
} as const satisfies Record<string, { freshness: Freshness; max: number; maxBytes?: number }>;

export type CacheName = keyof typeof CACHES;
type Follows<N extends CacheName> = (typeof CACHES)[N]['freshness'] extends { follows: 'lists' } ? N : never;
type Timed<N extends CacheName> = (typeof CACHES)[N]['freshness'] extends { maxAgeMs: number } ? N : never;
type ByInput<N extends CacheName> = (typeof CACHES)[N]['freshness'] extends { byInput: true } ? N : never;

/** A key from its parts, in one style for every cache. */
export const keyOf = (...parts: (string | number | boolean | null | undefined)[]) => parts.map((part) => String(part ?? '')).join('\u001f');

interface Held {
  value: unknown;
  /** The `lists` version it was read at, or the clock's time. */
  stamp: number;
}
const stores = new WeakMap<object, Map<CacheName, LRUCache<string, Held>>>();

function storeOf(owner: object, name: CacheName): LRUCache<string, Held> {
  let byName = stores.get(owner);
  if (!byName) stores.set(owner, (byName = new Map()));
  let store = byName.get(name);
  if (!store) {
    const spec: { max: number; maxBytes?: number } = CACHES[name];
    // Text values count their UTF-16 bytes and their key's.
    const bySize = spec.maxBytes ? { maxSize: spec.maxBytes, sizeCalculation: (held: Held, key: string) => (String(held.value).length + key.length) * 2 } : {};
    const made = (store = new LRUCache<string, Held>({ max: spec.max, ...bySize }));
    byName.set(name, made);
    if (spec.maxBytes) tallies.held.set(name, () => made.calculatedSize);
  }
  return store;
}

function tally(name: CacheName, hit: boolean) {
  (hit ? tallies.cacheHits : tallies.cacheMisses).add(name);
}

/** A value that follows the `lists` version: read again once anything a list shows has changed. */
export async function keptForLists<V, N extends CacheName>(name: Follows<N>, db: Kysely<Database>, key: string, load: () => Promise<V>): Promise<V> {
  const { lists } = await readContentVersions(db);
  const store = storeOf(db, name);
  const held = store.get(key);
  tally(name, held?.stamp === lists);
  if (held?.stamp === lists) return held.value as V;
  const value = await load();
  store.set(key, { value, stamp: lists });
  return value;
}

/**
 * A value kept at most its cache's age, by `now` (milliseconds); `keepIf` false leaves a value
 * unkept (an empty site's figures, so the first blog shows at once).
 */
export async function keptFor<V, N extends CacheName>(name: Timed<N>, owner: object, key: string, now: number, load: () => Promise<V>, keepIf: (value: V) => boolean = () => true): Promise<V> {
  const store = storeOf(owner, name);
  const held = store.get(key);
  const fresh = held !== undefined && now - held.stamp < (CACHES[name].freshness as { maxAgeMs: number }).maxAgeMs;
  tally(name, fresh);
  if (fresh) return held.value as V;
  const value = await load();
  if (keepIf(value)) store.set(key, { value, stamp: now });
  else store.delete(key);
  return value;
}

/** Whatever a `byInput` cache holds is the process's, not a database's. */
const PROCESS = {};

/** A text made from its key alone; `keep` false leaves it unkept (a preview's body). */
export async function keptByInput<N extends CacheName>(name: ByInput<N>, key: string, load: () => Promise<string>, keep = true): Promise<string> {
  const store = storeOf(PROCESS, name);
  const held = store.get(key);
  tally(name, held !== undefined);
  if (held) return held.value as string;
  const value = await load();
  if (keep) store.set(key, { value, stamp: 0 });
  return value;
}
