import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import { migrateToLatest } from '~/db/migrate.server';
import { withStoredProfile } from '~/features/users/users.service.server';
import type { ServiceContext, SessionUser } from '~/lib/service-context';
import { type Auth, createAuth, migrateAuthTables } from './auth.server';
import type { Config } from './config.server';
import { createRateLimitStore, type RateLimitStore } from './middleware/rate-limit.server';

/** Everything one process holds: created once at start, closed once at shutdown. */
export interface AppDeps {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  auth: Auth;
  now: () => Date;
  /** Rate-limit counters (server/middleware/rate-limit.server.ts); null when RATE_LIMITS=off. */
  rateLimits: RateLimitStore | null;
  /** Migrations this start applied (empty when the schema was current). */
  migrationsApplied: string[];
}

export async function createDeps(config: Config, log: Logger): Promise<AppDeps> {
  const database = createDatabase({ databaseUrl: config.DATABASE_URL, sqlitePath: config.SQLITE_PATH });
  try {
    await database.ping();
  } catch (error) {
    await database.close().catch(() => {});
    throw new StartupError(`DATABASE_URL cannot be reached: ${(error as Error).message}`);
  }
  const auth = createAuth({ config, authDb: database.authDb, db: database.db, dialect: database.dialect, log });
  await migrateAuthTables(auth);
  const { applied } = await migrateToLatest(database.db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  return { config, log, database, auth, now: () => new Date(), rateLimits: createRateLimitStore(config), migrationsApplied: applied };
}

export class StartupError extends Error {
  override name = 'StartupError';
}

export function serviceContext(deps: AppDeps, user: SessionUser | null, log: Logger = deps.log): ServiceContext {
  return { db: deps.database.db, dialect: deps.database.dialect, user, log, now: deps.now };
}

/**
 * Resolves the session from the cookie or a bearer token; null when there is none. The stored
 * profile's name and photo win over the account's (spec §3), so every screen shows the same.
 */
export async function resolveUser(deps: AppDeps, headers: Headers): Promise<SessionUser | null> {
  const { auth } = deps;
  const cookie = headers.get('cookie') ?? '';
  const authorization = headers.get('authorization') ?? '';
  if (!cookie.includes('session_token') && !authorization.toLowerCase().startsWith('bearer ')) return null;
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, image } = session.user;
  return withStoredProfile(serviceContext(deps, null), { id, email, name, image: image ?? null });
}

export type AppHono = Hono<{ Variables: AppVariables }>;

export interface AppVariables {
  requestId: string;
  clientIp: string;
  nonce: string;
  user: SessionUser | null;
  /** The parsed JSON body of an /api request (server/api/http.server.ts). */
  json: unknown;
}
