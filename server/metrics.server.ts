import { timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv6 } from 'node:net';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import { collectDefaultMetrics, Counter, Gauge, type Metric, Registry } from 'prom-client';
import { readQueues, type Queues } from '~/features/moderation/instance.service.server';
import { type CircuitState, circuitStates, deliveryTally } from '~/features/federation/delivery-metrics.server';
import { CACHES } from '~/lib/render/caches.server';
import { type JobKindStats, jobStats } from '~/kernel/jobs.server';
import { DURATION_BUCKETS, tallies } from '~/lib/render/metrics.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { version } from '../package.json';
import { OPERATIONS } from './http/api/operations.server';
import type { AppDeps, AppEnv } from './context.server';
import { jobFailures } from './jobs/runner.server';

/**
 * GET /metrics in Prometheus' text format (docs/decisions/052): the process and runtime defaults
 * of prom-client, request durations by route pattern, status and method, the page cache's and
 * render memo's hits and misses, the queues, the database pool, rate-limit refusals and sign-in
 * failures. The hot paths only increment numbers (app/lib/render/metrics.server.ts); everything is
 * turned into series here, when scraped.
 */

// --- Who may read it -------------------------------------------------------------------------

/** Loopback, the private IPv4 ranges (RFC 1918), link-local, and IPv6's unique local addresses. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** Whether `ip` (as request-context resolved it) is loopback or on a private network. */
export function isPrivateAddress(ip: string): boolean {
  const address = ip.split('%')[0]!;
  try {
    return PRIVATE.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
  } catch {
    return false; // not an address at all ('unknown')
  }
}

/**
 * With METRICS_TOKEN set, a matching bearer token is needed from anywhere (401 otherwise);
 * without it, only clients on loopback or a private network are answered, everyone else gets
 * the API's 404. The client is the one request-context resolved: the socket's address, or the
 * forwarded one when the socket is a TRUST_PROXY proxy, as for the rate limits.
 */
export function metricsAccess(token: string | undefined, c: Context<AppEnv>): 'ok' | 'unauthorized' | 'not-found' {
  if (token) {
    const header = c.req.header('authorization') ?? '';
    const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7).trim() : '');
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted) ? 'ok' : 'unauthorized';
  }
  return isPrivateAddress(c.get('clientIp')) ? 'ok' : 'not-found';
}

// --- Route patterns --------------------------------------------------------------------------

interface RoutePattern {
  label: string;
  regex: RegExp;
  /** The paths it matches when it has no parameter: looked up, not tested. */
  literal: string[] | null;
  /** Upper case; null: any method. */
  method: string | null;
  score: number;
}

/**
 * React Router's ranking, near enough: a static segment beats a parameter, a parameter beats a
 * splat, so `/wishlist/add` wins over `/wishList/:email?` and everything over `*`.
 */
const scoreOf = (segments: string[]) =>
  segments.length === 0 ? 1 : segments.reduce((sum, s) => sum + (s === '*' ? -2 : s.startsWith(':') || s.startsWith('{') ? 3 : 10), 0);

function compile(label: string, template: string, options: { method?: string; pages?: boolean } = {}): RoutePattern[] {
  const segments = template.split('/').filter(Boolean);
  // An optional last parameter (`:email?`) is two patterns, as React Router explodes it.
  const variants = segments.at(-1)?.endsWith('?') ? [segments.slice(0, -1), [...segments.slice(0, -1), segments.at(-1)!.slice(0, -1)]] : [segments];
  return variants.map((parts) => {
    const dynamic = (s: string) => s === '*' || s.startsWith(':') || s.startsWith('{');
    const body = parts.map((s) => (s === '*' ? '(?:/.*)?' : dynamic(s) ? '/[^/]+' : `/${s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')}`)).join('');
    const plain = `/${parts.join('/')}`;
    // A page is also asked for as React Router's data (`/allblogs.data`; `/_root.data` for `/`).
    const literal = parts.some(dynamic) ? null : options.pages ? [plain, parts.length === 0 ? '/_root.data' : `${plain}.data`] : [plain];
    const source = options.pages ? (parts.length === 0 ? '^/(?:_root\\.data)?$' : `^${body}(?:\\.data)?$`) : `^${body || '/'}$`;
    return { label, regex: new RegExp(source, options.pages ? 'i' : ''), literal, method: options.method ?? null, score: scoreOf(parts) };
  });
}

/** Patterns by literal path, then the rest in rank order: most requests are a map lookup. */
class RouteTable {
  private readonly literal = new Map<string, RoutePattern[]>();
  private readonly dynamic: RoutePattern[];

  constructor(patterns: RoutePattern[]) {
    for (const pattern of patterns) {
      for (const path of pattern.literal ?? []) {
        const same = this.literal.get(path) ?? [];
        this.literal.set(path, [...same, pattern]);
      }
    }
    this.dynamic = patterns.filter((p) => !p.literal).sort((a, b) => b.score - a.score);
  }

  find(method: string, path: string): string | null {
    const wanted = method === 'HEAD' ? 'GET' : method;
    const literal = this.literal.get(path);
    if (literal) for (const pattern of literal) if (pattern.method === null || pattern.method === wanted) return pattern.label;
    for (const pattern of this.dynamic) if ((pattern.method === null || pattern.method === wanted) && pattern.regex.test(path)) return pattern.label;
    return null;
  }
}

/** Routes of the HTTP layer itself (server/http/http.server.ts). */
const SERVER_ROUTES = new RouteTable([...compile('/metrics', '/metrics'), ...compile('/healthz', '/healthz'), ...compile('/readyz', '/readyz'), ...compile('/uploads/:name', '/uploads/:name')]);
/** /api's operations, from their declarations (the OpenAPI document's list: no second list). */
const API_ROUTES = new RouteTable(OPERATIONS.flatMap((op) => compile(op.path, op.path, { method: op.method.toUpperCase() })));

/**
 * The label of a request's route: the declared pattern it matched (`/blogs/:id`,
 * `/api/blogs/{id}`), never the URL itself, so the labels are as many as the routes. Asked once
 * per request after the answer: a map lookup, or a few anchored tests of the path.
 */
export function routeLabeler(pagePatterns: string[], isFile: (path: string) => boolean = () => false): (method: string, path: string) => string {
  const pages = new RouteTable(pagePatterns.flatMap((p) => compile(p, p, { pages: true })));
  return (method, path) => {
    if (path.startsWith('/api/')) return API_ROUTES.find(method, path) ?? '/api/*';
    const server = SERVER_ROUTES.find(method, path);
    if (server) return server;
    if (isFile(path)) return path.startsWith('/assets/') ? '/assets/*' : 'static file';
    return pages.find(method, path) ?? '/*';
  };
}

/** A route of React Router's build, as far as the server reads it. */
export interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module?: { default?: unknown; handle?: unknown };
}

/** Each page route of the build with its whole path (`/blogs/:id`): the parents' paths joined. */
export function pagesOf<R extends BuiltRoute>(routes: Record<string, R | undefined>): { path: string; route: R }[] {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return '';
    const parent = fullPath(route.parentId);
    return route.path ? `${parent}/${route.path}` : parent;
  };
  return Object.values(routes).flatMap((route) => (route && (route.path || route.index) ? [{ path: fullPath(route.id).replace(/\/+/g, '/') || '/', route }] : []));
}

/**
 * Every page's full path pattern from React Router's build (`routes` of the server build), the
 * root layout and pathless routes left out.
 */
export function pagePatternsOf(routes: Record<string, BuiltRoute | undefined>): string[] {
  return [...new Set(pagesOf(routes).map((page) => page.path))];
}

/** The answers that mean a sign-in was refused: a wrong password or a wrong code. */
const SIGN_IN_ROUTES = new Set(['/login', '/api/auth/sign-in/email', '/api/auth/two-factor/verify-totp', '/api/auth/two-factor/verify-backup-code']);

/**
 * Times every request and files it under its route pattern, status and method; counts refused
 * sign-ins (a 401 from the sign-in form or the sign-in API, whichever way better-auth was asked).
 */
export function observeRequests(label: (method: string, path: string) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const method = c.req.method;
    const route = label(method, c.req.path);
    const status = c.res.status;
    tallies.requests.observe(route, status, method, (performance.now() - started) / 1000);
    if (status === 401 && method === 'POST' && SIGN_IN_ROUTES.has(route)) tallies.signInFailures++;
  };
}

// --- The series ------------------------------------------------------------------------------

/** A histogram read from the request tally when scraped (prom-client's own would hash labels per request). */
function requestDurations(): Metric<string> {
  const name = 'afterglow_http_request_duration_seconds';
  const help = 'Time from the first middleware to the answer, by route pattern, status and method.';
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get: async () => {
      const values = [];
      for (const s of tallies.requests.series()) {
        const labels = { route: s.route, status: String(s.status), method: s.method };
        let cumulative = 0;
        for (let i = 0; i < DURATION_BUCKETS.length; i++) {
          cumulative += s.buckets[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: DURATION_BUCKETS[i]! }, value: cumulative });
        }
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: s.count });
        values.push({ metricName: `${name}_sum`, labels, value: s.sum });
        values.push({ metricName: `${name}_count`, labels, value: s.count });
      }
      return { name, help, type: 'histogram', values, aggregator: 'sum' };
    },
  } as unknown as Metric<string>;
}

let processRegistry: Registry | undefined;

/** prom-client's defaults and the tallies: one set per process, made once. */
function processMetrics(): Registry {
  if (processRegistry) return processRegistry;
  const registers = [(processRegistry = new Registry())];
  collectDefaultMetrics({ register: processRegistry });
  processRegistry.registerMetric(requestDurations());
  const hitsAndMisses = (name: string, help: string, read: () => { hits: number; misses: number }) =>
    new Counter({
      name,
      help,
      labelNames: ['result'],
      registers,
      collect() {
        const { hits, misses } = read();
        this.reset();
        this.inc({ result: 'hit' }, hits);
        this.inc({ result: 'miss' }, misses);
      },
    });
  hitsAndMisses('afterglow_page_cache_requests_total', 'Anonymous reads the page cache answered (hit) or rendered (miss).', () => tallies.pageCache);
  hitsAndMisses('afterglow_render_memo_requests_total', 'Signed-in pages filled in from a kept render (hit) or rendered anew (miss).', () => tallies.renderMemo);
  new Gauge({
    name: 'afterglow_memory_held_bytes',
    help: 'Bytes each bounded cache holds by its own count (page cache, render memo, Markdown), within its bound.',
    labelNames: ['part'],
    registers,
    collect() {
      this.reset();
      for (const [part, read] of tallies.held) this.set({ part }, read());
    },
  });
  new Counter({
    name: 'afterglow_early_answers_total',
    help: 'Kept pages answered before the middleware chain, by reader (anonymous or signed-in).',
    labelNames: ['reader'],
    registers,
    collect() {
      this.reset();
      this.inc({ reader: 'anonymous' }, tallies.early.anonymous);
      this.inc({ reader: 'signed-in' }, tallies.early.signedIn);
    },
  });
  new Counter({
    name: 'afterglow_rate_limit_refusals_total',
    help: 'Requests refused over a rate limit, by rule.',
    labelNames: ['rule'],
    registers,
    collect() {
      this.reset();
      // Every rule from the start, at 0, so a dashboard's rate is defined before the first refusal.
      for (const { name } of Object.values(RATE_LIMITS)) this.inc({ rule: name }, 0);
      for (const [rule, n] of tallies.rateLimitRefusals.entries()) this.inc({ rule }, n);
    },
  });
  new Counter({
    name: 'afterglow_cache_requests_total',
    help: 'Values the caches kept in app/lib/render/caches.server.ts answered (hit) or read again (miss), by cache.',
    labelNames: ['cache', 'result'],
    registers,
    collect() {
      this.reset();
      for (const cache of Object.keys(CACHES)) {
        this.inc({ cache, result: 'hit' }, tallies.cacheHits.get(cache));
        this.inc({ cache, result: 'miss' }, tallies.cacheMisses.get(cache));
      }
    },
  });
  new Counter({
    name: 'afterglow_job_failures_total',
    help: 'Background jobs that failed on this instance, by kind and outcome (retry: tried again later; dead: given up).',
    labelNames: ['kind', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const [key, n] of jobFailures.entries()) {
        const [kind, outcome] = key.split('\n');
        this.inc({ kind, outcome }, n);
      }
    },
  });
  new Counter({
    name: 'afterglow_federation_deliveries_total',
    help: 'Activities delivered to other servers by this instance, by remote host (the busiest hosts by name, the rest as "other") and outcome (sent; failed: an attempt that will be tried again; abandoned: given up).',
    labelNames: ['host', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const { host, counts } of deliveryTally.series()) for (const [outcome, n] of Object.entries(counts)) this.inc({ host, outcome }, n);
    },
  });
  new Counter({
    name: 'afterglow_sign_in_failures_total',
    help: 'Sign-ins refused for a wrong password or code (the form and the API).',
    registers,
    collect() {
      this.reset();
      this.inc(tallies.signInFailures);
    },
  });
  return processRegistry;
}

/** The series read from this server's parts when scraped: queues, pool, buffers. */
function instanceMetrics(deps: AppDeps): { registry: Registry; refresh(): Promise<void> } {
  const registry = new Registry();
  const registers = [registry];
  let queues: Queues | null = null;
  let jobs: JobKindStats[] = [];
  let circuits = new Map<string, CircuitState>();
  const gauge = (name: string, help: string, read: (g: Gauge) => void, labelNames: string[] = []) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        read(this);
      },
    });
  gauge('afterglow_info', 'The running version, Node.js and database kind (always 1).', (g) => g.set({ version, node: process.versions.node, database: deps.database.dialect }, 1), ['version', 'node', 'database']);
  gauge('afterglow_database_up', 'Whether the last scrape could read the database (1) or not (0).', (g) => g.set(queues ? 1 : 0));
  gauge('afterglow_queue_depth', 'Items waiting: mails not yet sent, open reports, background jobs queued or running.', (g) => {
    if (!queues) return;
    for (const [queue, q] of Object.entries(queues)) g.set({ queue }, q.depth);
    g.set({ queue: 'jobs' }, jobs.reduce((n, k) => n + k.depth, 0));
  }, ['queue']);
  gauge('afterglow_queue_oldest_age_seconds', 'How long the oldest waiting item has waited (0 when none waits).', (g) => {
    if (!queues) return;
    for (const [queue, q] of Object.entries(queues)) g.set({ queue }, q.oldestAgeSeconds);
    g.set({ queue: 'jobs' }, Math.max(0, ...jobs.map((k) => k.oldestAgeSeconds)));
  }, ['queue']);
  gauge('afterglow_jobs_waiting', 'Background jobs queued or running, by kind.', (g) => {
    for (const k of jobs) g.set({ kind: k.kind }, k.depth);
  }, ['kind']);
  gauge('afterglow_jobs_dead', 'Background jobs given up after their last attempt, by kind (kept with their last error).', (g) => {
    for (const k of jobs) g.set({ kind: k.kind }, k.dead);
  }, ['kind']);
  const CIRCUIT_LEVEL: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };
  gauge('afterglow_federation_circuits', "Remote hosts by the state of federation's circuit breaker (open: deliveries held after repeated failures; half_open: one is let through to try).", (g) => {
    for (const state of Object.keys(CIRCUIT_LEVEL) as CircuitState[]) g.set({ state: state.replace('-', '_') }, [...circuits.values()].filter((s) => s === state).length);
  }, ['state']);
  gauge('afterglow_federation_circuit_state', 'The circuit breaker of each host that has a deliveries series of its own: 0 closed, 1 half open, 2 open.', (g) => {
    // A host Fedify never saw fail has no state kept: closed.
    for (const host of deliveryTally.shownHosts()) g.set({ host }, CIRCUIT_LEVEL[circuits.get(host) ?? 'closed']);
  }, ['host']);
  gauge('afterglow_views_buffered', 'Views counted but not yet written to the database (written every few seconds).', (g) => g.set(deps.views.buffered));
  const pool = deps.database.pgPool;
  gauge('afterglow_db_pool_max', 'Connections the database pool may open (SQLite: its one connection).', (g) => g.set(pool ? (pool.options.max ?? 10) : 1));
  if (pool) {
    gauge('afterglow_db_pool_connections', 'Open connections of the PostgreSQL pool, idle or in use.', (g) => {
      g.set({ state: 'idle' }, pool.idleCount);
      g.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
    }, ['state']);
    gauge('afterglow_db_pool_waiting', 'Queries waiting for a free PostgreSQL connection.', (g) => g.set(pool.waitingCount));
  }
  return {
    registry,
    async refresh() {
      try {
        [queues, jobs, circuits] = await Promise.all([
          readQueues({ db: deps.database.db, now: deps.now }),
          jobStats({ db: deps.database.db, now: deps.now }),
          circuitStates({ db: deps.database.db, now: deps.now }),
        ]);
      } catch (error) {
        queues = null;
        jobs = [];
        circuits = new Map();
        deps.log.warn({ err: error }, 'metrics: the queues could not be read');
      }
    },
  };
}

/** GET /metrics: never kept (no-store), nowhere linked, and in no sitemap. */
export function metricsEndpoint(deps: AppDeps, token: string | undefined): Handler<AppEnv> {
  const own = processMetrics();
  const instance = instanceMetrics(deps);
  return async (c) => {
    c.header('Cache-Control', 'no-store');
    const access = metricsAccess(token, c);
    if (access === 'not-found') return c.json({ message: MESSAGES.apiNotFound }, 404);
    if (access === 'unauthorized') return c.json({ message: MESSAGES.authRequired }, 401, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    await instance.refresh();
    const merged = Registry.merge([own, instance.registry]);
    return c.body(await merged.metrics(), 200, { 'Content-Type': merged.contentType });
  };
}
