import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import { migrateToLatest } from '~/db/migrate.server';
import type { ServiceContext, SessionUser } from '~/lib/service-context';
import { type Auth, createAuth, migrateAuthTables } from './auth.server';
import type { Config } from './config.server';

/** Everything one process holds: created once at start, closed once at shutdown. */
export interface AppDeps {
  config: Config;
  log: Logger;
  database: DatabaseHandle;
  auth: Auth;
  now: () => Date;
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
  const auth = createAuth({ config, authDb: database.authDb, dialect: database.dialect, log });
  await migrateAuthTables(auth);
  const { applied } = await migrateToLatest(database.db);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  return { config, log, database, auth, now: () => new Date(), migrationsApplied: applied };
}

export class StartupError extends Error {
  override name = 'StartupError';
}

export function serviceContext(deps: AppDeps, user: SessionUser | null, log: Logger = deps.log): ServiceContext {
  return { db: deps.database.db, dialect: deps.database.dialect, user, log, now: deps.now };
}

/** Resolves the session from the cookie or a bearer token; null when there is none. */
export async function resolveUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const cookie = headers.get('cookie') ?? '';
  const authorization = headers.get('authorization') ?? '';
  if (!cookie.includes('session_token') && !authorization.toLowerCase().startsWith('bearer ')) return null;
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, email, name, image } = session.user;
  return { id, email, name, image: image ?? null };
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
