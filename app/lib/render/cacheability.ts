/**
 * How an anonymous read may be kept by the page cache, declared where the read is defined: a
 * route module's `handle` (`export const handle = { cache: 'lists' } satisfies CachedRead`) or
 * an API operation's `cache` (docs/decisions/055). A page or operation without one is rendered
 * every time. What each follows (decision 024):
 * - `blog`: a blog's own page or JSON, kept while that blog's `revision` stands (its `:id`/`{id}`
 *   is the blog); counts on it may be up to the counts' age bound old;
 * - `lists`: anything else that shows blogs, kept while the `lists` version stands and at most
 *   the counts' age bound (like, comment and view counts move no list version);
 * - `lists-without-counts`: like `lists`, for reads that show no count (feeds, robots, sitemaps),
 *   with no age bound.
 * Declare one only for a read whose every shown thing moves a version when it changes: a new
 * table or column it shows needs its rule in app/db/freshness.ts.
 */
export type Cacheability = 'blog' | 'lists' | 'lists-without-counts';

export interface CachedRead {
  cache: Cacheability;
}
