import { betterAuth } from 'better-auth';
import { getMigrations } from 'better-auth/db/migration';
import { bearer } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DialectName } from '~/db/schema';
import type { Config } from './config.server';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const SESSION_COOKIE_PREFIX = 'afterglow';

interface AuthDeps {
  config: Config;
  authDb: Kysely<any>;
  dialect: DialectName;
  log: Logger;
}

/**
 * better-auth owns accounts, passwords and sessions (BRIEF §2 "Identity provider").
 * Sessions live in the database, so any instance can serve any request.
 */
export function createAuth({ config, authDb, dialect, log }: AuthDeps) {
  const authLog = log.child({ module: 'auth' });
  return betterAuth({
    appName: config.SITE_NAME,
    secret: config.SESSION_SECRET,
    // Unset PUBLIC_URL: the origin is taken from each request, so the site works at
    // localhost, 127.0.0.1 or a LAN address alike (BRIEF §5).
    baseURL: config.PUBLIC_URL,
    basePath: '/api/auth',
    database: { db: authDb, type: dialect },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: config.PUBLIC_URL?.startsWith('https://') ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: {
        ipAddressHeaders: ['x-afterglow-client-ip'],
      },
    },
    // Our own limiter (server/middleware) runs in front of every auth route.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: {
      level: config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'debug' : 'warn',
      log: (level, message, ...args) => {
        if (message.includes('Base URL is not set')) return;
        authLog[level]({ args }, message);
      },
    },
    plugins: [bearer()],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** better-auth's tables, created in code (its CLI crashes on Node 20). */
export async function migrateAuthTables(auth: Auth): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}
