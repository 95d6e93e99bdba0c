/**
 * What an operator's /metrics reads (docs/decisions/052), counted where it happens. The paths
 * that count here are hot (a kept page is answered thousands of times a second), so counting is
 * a number incremented in place: a request's series is made the first time its route, status and
 * method are seen, and only added to after that. server/metrics.server.ts turns these figures
 * into Prometheus series when scraped. One process, one set of figures.
 */

/** Upper bounds (seconds) of the request-duration histogram's buckets. */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

export interface DurationSeries {
  route: string;
  status: number;
  method: string;
  /** Requests per bucket (not cumulative); one more slot for those above the last bound. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Request durations by route pattern, status and method: route → status → method → series. */
export class DurationTally {
  private readonly byRoute = new Map<string, Map<number, Map<string, DurationSeries>>>();
  /** Every request observed, whatever its series: how busy the process is (delivery-pacing.server.ts). */
  answered = 0;

  observe(route: string, status: number, rawMethod: string, seconds: number): void {
    this.answered++;
    const method = METHODS.has(rawMethod) ? rawMethod : 'OTHER';
    let byStatus = this.byRoute.get(route);
    if (!byStatus) this.byRoute.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let series = byMethod.get(method);
    if (!series) byMethod.set(method, (series = { route, status, method, buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 }));
    let slot = 0;
    while (slot < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[slot]!) slot++;
    series.buckets[slot]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  *series(): Generator<DurationSeries> {
    for (const byStatus of this.byRoute.values()) for (const byMethod of byStatus.values()) yield* byMethod.values();
  }
}

/** Counts by a name from a fixed set (a rate-limit rule's name): no new key per request. */
export class NamedCounts {
  private readonly counts = new Map<string, number>();

  add(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  get(name: string): number {
    return this.counts.get(name) ?? 0;
  }

  entries(): IterableIterator<[string, number]> {
    return this.counts.entries();
  }
}

export const tallies = {
  requests: new DurationTally(),
  /** Anonymous reads answered from the page cache, or rendered and kept (server/http/middleware/page-cache). */
  pageCache: { hits: 0, misses: 0 },
  /** Signed-in renders filled in from a kept template, or rendered anew (render-memo.server.ts). */
  renderMemo: { hits: 0, misses: 0 },
  /** Kept pages answered before Hono's chain (server/http/http.server.ts' answerKept), by reader. */
  early: { anonymous: 0, signedIn: 0 },
  /** Values the caches of caches.server.ts answered (hit) or read again (miss), by the cache's name. */
  cacheHits: new NamedCounts(),
  cacheMisses: new NamedCounts(),
  /** Requests refused over a rate limit, by the rule's name. */
  rateLimitRefusals: new NamedCounts(),
  /** Password sign-ins and two-factor codes refused (wrong password, wrong code). */
  signInFailures: 0,
  /**
   * The bytes each bounded cache holds by its own count, read when scraped (docs/decisions/087):
   * the page cache, the render memo, the Markdown cache. A server makes each once; in a test
   * process running several apps, the last one made of a name is the one counted.
   */
  held: new Map<string, () => number>(),
};
