import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { knownVersions, readCurrentVersions } from '~/db/content-version.server';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import { migrateToLatest } from '~/db/migrate.server';
import { watchOwnRowsSqlite } from '~/db/viewer-writes.server';
import { setRenderTimeBound } from '~/features/blogs/markdown.server';
import { countsFreshness, memoryViewMarks, ViewCounter } from '~/features/blogs/view-counter.server';
import { imageStoreFor, ownImageBases } from '~/features/images/image-store.server';
import { photoFetchPolicy } from '~/features/images/images.service.server';
import { withStoredProfile } from '~/features/users/users.service.server';
import { RenderMemo } from '~/lib/render/render-memo.server';
import type { ServiceContext, SessionUser } from '~/lib/core/service-context';
import { RateLimitedError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { RateLimitRule } from '~/lib/core/rate-limits';
import { type Auth, authPort, createAuth, migrateAuthTables } from './auth.server';
import type { Config } from './config.server';
import { checkFailures, consumeEmailRateLimit, consumeRule, countFailure, createRateLimitStore, type RateLimitResult, rateLimitHeaders, RedisRateLimitStore, type RateLimitStore } from './http/middleware/rate-limit.server';

/** Everything one process holds: created once at start, closed once at shutdown. */
export interface AppDeps {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  auth: Auth;
  now: () => Date;
  /** Rate-limit counters (server/http/middleware/rate-limit.server.ts); null when RATE_LIMITS=off. */
  rateLimits: RateLimitStore | null;
  /** Views, de-duplicated per visitor and day and written in batches (decision 024). */
  views: ViewCounter;
  /** Migrations this start applied (empty when the schema was current). */
  migrationsApplied: string[];
  /** Signed-in pages rendered once per distinct content (decision 043). */
  renderMemo: RenderMemo;
}

export async function createDeps(config: Config, log: Logger): Promise<AppDeps> {
  const database = createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
  try {
    await database.ping();
  } catch (error) {
    await database.close().catch(() => {});
    throw new StartupError(`DATABASE_URL cannot be reached: ${(error as Error).message}`);
  }
  const rateLimits = createRateLimitStore(config);
  // better-auth's hooks call the users feature with the request's own context, built from deps,
  // which hold better-auth itself: the context is asked for only once a request arrives.
  let ready: AppDeps | undefined;
  const contextFor = (user: SessionUser | null, site: CallSite) => {
    if (!ready) throw new Error('an auth hook ran before the app was ready');
    return serviceContext(ready, user, site);
  };
  const auth = createAuth({ config, authDb: database.authDb, dialect: database.dialect, log, contextFor });
  await migrateAuthTables(auth);
  const { applied, freshnessRebuilt } = await migrateToLatest(database.db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  if (freshnessRebuilt) log.info('freshness triggers made again from app/db/freshness.ts');
  // After the migrations: its triggers notify, and the listener reads the stripes they made.
  database.versionListener?.start(log);
  // SQLite: whose rows a write to someone's own rows touched (decision 076).
  if (database.sqlite) watchOwnRowsSqlite(database.sqlite, database.viewerChanges);
  // Marks live where the rate limits do when several instances share Redis, whether or not limits are on.
  const marks = config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, config.REDIS_PREFIX) : memoryViewMarks();
  setRenderTimeBound(config.MARKDOWN_RENDER_S * 1000);
  const renderMemo = new RenderMemo({ maxAgeMs: countsFreshness(config.COUNTS_MAX_AGE_S * 1000).keptMs, maxBytes: config.RENDER_MEMO_MB * 1024 * 1024 });
  const deps: AppDeps = { config, log, database, auth, now: () => new Date(), rateLimits, views: undefined!, migrationsApplied: applied, renderMemo };
  ready = deps;
  // The counter asks deps for the time, so a test that sets the clock moves the day too.
  deps.views = new ViewCounter({ db: database.db, log, marks, secret: config.SESSION_SECRET, now: () => deps.now(), flushMs: countsFreshness(config.COUNTS_MAX_AGE_S * 1000).flushMs });
  return deps;
}

export class StartupError extends Error {
  override name = 'StartupError';
}

/** Where a use case is called from: the request (absent for jobs and start-up tasks). */
export interface CallSite {
  log?: Logger;
  clientIp?: string;
  request?: Request;
  /** Told each counted limit, so a transport can send the RateLimit-* headers. */
  onLimit?: (result: RateLimitResult) => void;
}

/** The seam's context (docs/decisions/033): one per request, given to every use case. */
export function serviceContext(deps: AppDeps, user: SessionUser | null, site: CallSite = {}): ServiceContext {
  const { log = deps.log, clientIp = '', request } = site;
  const limit = async (rule: RateLimitRule, email?: string) => {
    const result = await consumeRule(deps.rateLimits, rule, { clientIp, email }, log);
    site.onLimit?.(result);
    if (!result.allowed) throw new RateLimitedError(MESSAGES.tooManyRequests, rateLimitHeaders(result));
  };
  const limitAccount: ServiceContext['limitAccount'] = async (rule, account, mode) => {
    if (mode === 'fail') {
      await countFailure(deps.rateLimits, rule, account, log);
      return { allowed: true, retryAfter: 0 };
    }
    return mode === 'check' ? checkFailures(deps.rateLimits, rule, account, log) : consumeEmailRateLimit(deps.rateLimits, rule, account, log);
  };
  return {
    db: deps.database.db,
    dialect: deps.database.dialect,
    user,
    log,
    now: deps.now,
    clientIp,
    limit: (rule) => limit(rule),
    limitAccount,
    auth: authPort(deps, request, clientIp, limit),
    images: imageStoreFor(deps.config),
    photoFetch: photoFetchPolicy(deps.config),
    spamHold: { days: deps.config.SPAM_HOLD_DAYS, maxLinks: deps.config.SPAM_HOLD_MAX_LINKS },
    imageBases: ownImageBases(deps.config),
  };
}

/**
 * How long an instance trusts a session it resolved without asking better-auth again. Anything
 * that ends a session or changes what it shows bumps the `sessions` version, which is read on
 * every request, so this bounds only how often better-auth refreshes a live session's expiry.
 */
const SESSION_CACHE_MS = 30_000;
interface CachedSession {
  user: SessionUser;
  version: number;
}
const sessionCaches = new WeakMap<AppDeps, LRUCache<string, CachedSession>>();

/**
 * Resolves the session from the cookie or a bearer token; null when there is none. The stored
 * profile's name and photo win over the account's (docs/product.md#data), so every screen shows the same.
 *
 * A session better-auth accepted is remembered, keyed by the exact credentials that proved it
 * (the signed cookie header or the bearer token): asking better-auth again costs a signature
 * check and three queries on every signed-in request. The remembered answer is used only while
 * the database's `sessions` version is unchanged, so a sign-out, a revoked session or a changed
 * name on any instance is seen by every instance on its next request (docs/decisions/019).
 */
export async function resolveUser(deps: AppDeps, headers: Headers): Promise<SessionUser | null> {
  const { auth } = deps;
  const cookie = headers.get('cookie') ?? '';
  const authorization = headers.get('authorization') ?? '';
  if (!hasCredentials(cookie, authorization)) return null;
  let cache = sessionCaches.get(deps);
  if (!cache) sessionCaches.set(deps, (cache = new LRUCache({ max: 10_000, ttl: SESSION_CACHE_MS })));
  const key = sessionKey(cookie, authorization);
  const { sessions: version } = await readCurrentVersions(deps.database);
  const cached = cache.get(key);
  if (cached && cached.version === version) return cached.user;

  const session = await auth.api.getSession({ headers });
  if (!session) {
    cache.delete(key);
    return null;
  }
  const { id, email, name, image } = session.user;
  const user = await withStoredProfile(serviceContext(deps, null), { id, email, name, image: image ?? null });
  const expiresIn = new Date(session.session.expiresAt).getTime() - Date.now();
  if (expiresIn > 0) cache.set(key, { user, version }, { ttl: Math.min(SESSION_CACHE_MS, expiresIn) });
  return user;
}

const sessionKey = (cookie: string, authorization: string) => `${cookie}\n${authorization}`;
/** A session cookie or a bearer token: without either, nobody is signed in and nothing is looked up. */
const hasCredentials = (cookie: string, authorization: string) => cookie.includes('session_token') || authorization.toLowerCase().startsWith('bearer ');

/**
 * What `resolveUser` would answer for these credentials, if it is known without waiting on
 * anything: a session it remembers while the `sessions` version, known from memory (the SQLite
 * change watch, PostgreSQL's listener), stands. `null`: no credentials at all; `undefined`: only
 * `resolveUser` can tell. For answers made before Hono's chain (decision 086).
 */
export function knownUser(deps: AppDeps, cookie: string, authorization: string): SessionUser | null | undefined {
  if (!hasCredentials(cookie, authorization)) return null;
  const cached = sessionCaches.get(deps)?.get(sessionKey(cookie, authorization));
  if (!cached) return undefined;
  const versions = knownVersions(deps.database);
  return versions && versions.sessions === cached.version ? cached.user : undefined;
}

/** The Hono environment of every app and API router: `new Hono<AppEnv>()`. */
export type AppEnv = { Variables: AppVariables };

export interface AppVariables {
  requestId: string;
  clientIp: string;
  nonce: string;
  /**
   * A kept page's script sources for its CSP (`'self'` and the hashes of its inline scripts),
   * set by the page cache: a kept page carries no nonce (docs/decisions/019).
   */
  scriptSources?: string;
  user: SessionUser | null;
  /** Where entry.server leaves a signed-in page's answer for the viewer memo (decision 059). */
  viewerCapture?: import('./http/middleware/viewer-memo.server').ViewerCapture;
  /** The parsed JSON body of an /api request (server/http/api/handlers.server.ts). */
  json: unknown;
}
