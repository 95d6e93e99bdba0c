import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import { bearer, genericOAuth, oauthPopup, twoFactor } from 'better-auth/plugins';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, DialectName } from '~/db/schema';
import { imageStoreFor } from '~/features/images/image-store.server';
import { assertCanWrite } from '~/kernel/standing.server';
import { createUserRecord, recordSignIn } from '~/features/users/users.service.server';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordSchema } from '~/features/users/users.schema';
import { AppError } from '~/lib/errors';
import { MESSAGES } from '~/lib/messages';
import type { AuthPort, ServiceContext } from '~/lib/service-context';
import { checkAuthInput, fitUserToLimits } from './auth-input.server';
import type { Config } from './config.server';
import { mailLink } from '~/features/mail/mail-templates.server';
import { createMailer, type Mailer } from './adapters/smtp.server';
import { expectedOrigin } from './middleware/origin-check.server';
import { checkFailures, consumeEmailRateLimit, countFailure, emailRateLimitKey, type RateLimitStore } from './middleware/rate-limit.server';
import { clientRulesOf, emailRuleOf, type RateLimitRule } from '~/lib/rate-limits';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };
export const SESSION_COOKIE_PREFIX = 'afterglow';
/** better-auth's provider id for the OIDC_* issuer (its callback is /api/auth/callback/oidc). */
export const OIDC_PROVIDER_ID = 'oidc';
/** A reset link works once, for an hour (issue 3 §4). */
export const RESET_TOKEN_SECONDS = 60 * 60;
/** better-auth's `verification` identifier of a reset link is this prefix and the token. */
const RESET_IDENTIFIER_PREFIX = 'reset-password:';
/** Where a reset link lands: the one page that takes the token (docs/decisions/021). */
export const RESET_PAGE_PATH = '/reset-password';

/**
 * The mailed reset link, on mailOrigin and landing on RESET_PAGE_PATH whatever `redirectTo` the
 * request named: neither the request's Host nor its body can send the token to another origin
 * (docs/decisions/021).
 */
export function resetPasswordLink(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>, token: string): string {
  return mailLink(config, `/api/auth/reset-password/${encodeURIComponent(token)}?${new URLSearchParams({ callbackURL: RESET_PAGE_PATH })}`);
}

interface AuthDeps {
  config: Config;
  authDb: Kysely<any>;
  /** Our normalised query builder, for the user-record hooks. */
  db: Kysely<Database>;
  dialect: DialectName;
  log: Logger;
  mailer?: Mailer;
  /** The rate-limit counters, for the per-account limits (null: RATE_LIMITS=off). */
  rateLimits?: RateLimitStore | null;
}

/** The social providers this configuration offers, in button order: id and display name. */
export function socialProviders(config: Config): { id: string; name: string }[] {
  return [
    ...(config.GOOGLE_CLIENT_ID ? [{ id: 'google', name: 'Google' }] : []),
    ...(config.OIDC_ISSUER ? [{ id: OIDC_PROVIDER_ID, name: config.OIDC_NAME }] : []),
  ];
}

/** Where a social sign-in's profile photo may live, for the CSP's img-src. */
export function providerPhotoOrigins(config: Pick<Config, 'GOOGLE_CLIENT_ID' | 'OIDC_ISSUER'>): string[] {
  return [
    ...(config.GOOGLE_CLIENT_ID ? ['https://*.googleusercontent.com'] : []),
    ...(config.OIDC_ISSUER ? [new URL(config.OIDC_ISSUER).origin] : []),
  ];
}

/** Endpoints that choose a password, and the body field that carries it. */
const PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/set-password': 'newPassword',
};

/**
 * better-auth's own endpoints that change an account. A suspended user can read but not write
 * (docs/decisions/028): these answer 403 with the suspension's message, like every write of ours,
 * whether they come through /api/auth or a page's form (the auth port). Signing in and out, and
 * ending sessions, stay open.
 */
export const ACCOUNT_WRITE_ENDPOINTS: ReadonlySet<string> = new Set([
  '/update-user',
  '/change-password',
  '/set-password',
  '/change-email',
  '/delete-user',
  '/link-social',
  '/unlink-account',
  '/oauth2/link',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/generate-backup-codes',
]);

/** The signed cookie naming the accounts this browser signed in to with their password (docs/decisions/049). */
const KNOWN_DEVICE_COOKIE = 'known_devices';
/** Accounts a browser is remembered for; the oldest is forgotten first. */
const KNOWN_DEVICE_ACCOUNTS = 5;
const KNOWN_DEVICE_SECONDS = 400 * 24 * 60 * 60;
/** The refusal of an account's per-account rule, with a message that says what happened. */
const resting = (path: string, retryAfter: number) => {
  const message = path === '/sign-in/email' ? MESSAGES.signInResting(retryAfter) : path === '/request-password-reset' ? MESSAGES.resetResting(retryAfter) : MESSAGES.passwordCheckResting(retryAfter);
  return new APIError('TOO_MANY_REQUESTS', { message, code: 'account_resting' }, { 'Retry-After': String(retryAfter) });
};

/**
 * better-auth owns accounts, passwords and sessions (BRIEF §2 "Identity provider").
 * Sessions live in the database, so any instance can serve any request.
 */
export function createAuth({ config, authDb, db, dialect, log, mailer, rateLimits = null }: AuthDeps) {
  const authLog = log.child({ module: 'auth' });
  const mail = mailer ?? createMailer(config, log);
  const hookContext = (): ServiceContext => ({
    db,
    dialect,
    user: null,
    log: authLog,
    now: () => new Date(),
    clientIp: '',
    limit: async () => {},
    auth: authPort({ auth, config }, undefined, '', async () => {}),
    images: imageStoreFor(config),
  });
  /**
   * Only the newest reset link of a user works (audit item 5): a new request, or a completed
   * reset, ends every other one still in better-auth's `verification` table.
   */
  const revokeResetLinks = async (userId: string, keepId?: string): Promise<void> => {
    const { adapter } = await auth.$context;
    await adapter.deleteMany({
      model: 'verification',
      where: [
        { field: 'value', value: userId },
        { field: 'identifier', operator: 'starts_with', value: RESET_IDENTIFIER_PREFIX },
        ...(keepId ? [{ field: 'id', operator: 'ne' as const, value: keepId }] : []),
      ],
    });
  };
  type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
  /** The account a per-account rule counts for: the body's email at sign-in and reset, else the session's. */
  const accountOf = async (ctx: HookContext): Promise<string | null> => {
    if (ctx.path === '/sign-in/email' || ctx.path === '/request-password-reset') {
      const email = (ctx.body as Record<string, unknown> | undefined)?.email;
      return typeof email === 'string' ? email : null;
    }
    const session = ctx.headers ? await auth.api.getSession({ headers: ctx.headers }) : null;
    return session?.user.email ?? null;
  };
  const deviceCookie = (ctx: HookContext) => ctx.context.createAuthCookie(KNOWN_DEVICE_COOKIE, { maxAge: KNOWN_DEVICE_SECONDS });
  const devicesOf = async (ctx: HookContext): Promise<string[]> => {
    const value = await ctx.getSignedCookie(deviceCookie(ctx).name, ctx.context.secret);
    return value ? value.split('.') : [];
  };
  /** Whether this browser signed in to the account `email` with its password before (a signed cookie says so). */
  const knownDevice = async (ctx: HookContext, email: string) => (await devicesOf(ctx)).includes(emailRateLimitKey(email).slice('email:'.length));
  const rememberDevice = async (ctx: HookContext, email: string) => {
    const account = emailRateLimitKey(email).slice('email:'.length);
    const accounts = [...(await devicesOf(ctx)).filter((known) => known !== account), account].slice(-KNOWN_DEVICE_ACCOUNTS);
    const cookie = deviceCookie(ctx);
    await ctx.setSignedCookie(cookie.name, accounts.join('.'), ctx.context.secret, cookie.attributes);
  };
  const auth = betterAuth({
    appName: config.SITE_NAME,
    secret: config.SESSION_SECRET,
    // Unset PUBLIC_URL: the origin is taken from each request, so the site works at
    // localhost, 127.0.0.1 or a LAN address alike (BRIEF §5). Never for a mailed link, which
    // whoever sends the request could then steer: those use mailLink (docs/decisions/021).
    baseURL: config.PUBLIC_URL,
    basePath: '/api/auth',
    database: { db: authDb, type: dialect },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // Not awaited: the answer (and its timing) must not tell whether the email is registered.
      sendResetPassword: async ({ user, token }) => {
        const url = resetPasswordLink(config, token);
        void mail
          .send({
            to: user.email,
            subject: `Reset your ${config.SITE_NAME} password`,
            text: [
              `Hello ${user.name || 'there'},`,
              '',
              `Someone asked to reset the password of your ${config.SITE_NAME} account. To choose a new one, open this link within an hour:`,
              '',
              url,
              '',
              'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.',
            ].join('\n'),
          })
          .catch((error: unknown) => authLog.error({ err: error }, 'password reset mail failed'));
      },
      onPasswordReset: async ({ user }) => revokeResetLinks(user.id),
    },
    socialProviders: config.GOOGLE_CLIENT_ID
      ? { google: { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET!, prompt: 'select_account' } }
      : {},
    account: {
      // A provider that vouches for the email (email_verified) joins the account of that email,
      // even one whose address we never verified (we send no verification mail). Against
      // pre-registration of someone else's address, linking ends that account's sessions (below).
      accountLinking: { enabled: true, allowDifferentEmails: false, requireLocalEmailVerified: false },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => fitUserToLimits(user),
          after: async (user) => {
            await createUserRecord(hookContext(), { id: user.id, email: user.email, name: user.name, image: user.image ?? null });
          },
        },
        update: { before: async (user) => fitUserToLimits(user) },
      },
      account: {
        create: {
          // Before, not after: after-hooks may run once the callback has already created the new
          // session, which would then be deleted too (seen under load). Here no new session exists yet.
          before: async (account, ctx) => {
            if (account.providerId === 'credential' || !ctx || !account.userId) return;
            await ctx.context.internalAdapter.deleteUserSessions(account.userId);
          },
        },
      },
      verification: {
        create: {
          after: async (verification) => {
            if (verification.identifier.startsWith(RESET_IDENTIFIER_PREFIX)) await revokeResetLinks(verification.value, verification.id);
          },
        },
      },
      session: {
        create: {
          after: async (session, ctx) => {
            // The password step of a two-factor account makes a session only to delete it at
            // once: that is not a sign-in yet; the one after the code is.
            if (ctx?.path === '/sign-in/email') {
              const user = (await ctx.context.internalAdapter.findUserById(session.userId)) as { twoFactorEnabled?: boolean | null } | null;
              if (user?.twoFactorEnabled) return;
            }
            await recordSignIn(hookContext(), session.userId);
          },
        },
      },
    },
    hooks: {
      // The spec's password rule (§5) holds for every way of choosing a password, not only the form.
      before: createAuthMiddleware(async (ctx) => {
        checkAuthInput(ctx.path, ctx.body);
        if (ACCOUNT_WRITE_ENDPOINTS.has(ctx.path)) {
          // The full API, not the hook's own reader: a bearer token is turned into a session by
          // a plugin's hook, which runs after this one.
          const session = ctx.headers ? await auth.api.getSession({ headers: ctx.headers }) : null;
          if (session) {
            const { id, email, name, image } = session.user;
            await assertCanWrite({ ...hookContext(), user: { id, email, name, image: image ?? null } }).catch((error: unknown) => {
              if (error instanceof AppError) throw new APIError('FORBIDDEN', { message: error.message, code: error.code });
              throw error;
            });
          }
        }
        // Per account as well as per address (AUTH_ENDPOINT_LIMITS): counted here, inside
        // better-auth, because the API and the page forms (the auth port) both pass through it.
        // A browser that signed in to the account before is not held back by others' tries.
        const perAccount = emailRuleOf(ctx.path);
        const email = perAccount ? await accountOf(ctx) : null;
        if (perAccount && email !== null && !(await knownDevice(ctx, email))) {
          const limit = perAccount.counts === 'failures' ? await checkFailures(rateLimits, perAccount, email, authLog) : await consumeEmailRateLimit(rateLimits, perAccount, email, authLog);
          if (!limit.allowed) throw resting(ctx.path, limit.retryAfter);
        }
        const field = PASSWORD_FIELDS[ctx.path];
        if (!field) return;
        const result = PasswordSchema.safeParse((ctx.body as Record<string, unknown> | undefined)?.[field]);
        if (!result.success) {
          throw new APIError('BAD_REQUEST', { message: result.error.issues[0]!.message, code: 'PASSWORD_RULE' });
        }
      }),
      // Wrong passwords are counted per account once the answer is known; a right one at
      // sign-in remembers this browser for the account (docs/decisions/049).
      after: createAuthMiddleware(async (ctx) => {
        const perAccount = emailRuleOf(ctx.path);
        if (perAccount?.counts !== 'failures') return;
        const returned = ctx.context.returned;
        const wrong = isAPIError(returned) && (ctx.path === '/sign-in/email' ? returned.statusCode === 401 : returned.body?.code === 'INVALID_PASSWORD');
        const email = await accountOf(ctx);
        if (email === null) return;
        if (wrong) {
          if (!(await knownDevice(ctx, email))) await countFailure(rateLimits, perAccount, email, authLog);
        } else if (ctx.path === '/sign-in/email' && !isAPIError(returned)) {
          await rememberDevice(ctx, email);
        }
      }),
    },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: config.PUBLIC_URL?.startsWith('https://') ?? false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      ipAddress: {
        ipAddressHeaders: ['x-afterglow-client-ip'],
      },
    },
    // Our own limiter (server/middleware/rate-limit.server.ts) runs in front of the auth routes.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // 4xx answers (a wrong password, a weak one) are the client's business, not an error here.
    onAPIError: {
      onError: (error) => {
        const status = (error as { statusCode?: number }).statusCode ?? 500;
        if (status >= 500) authLog.error({ err: error }, 'auth endpoint failed');
        else authLog.debug({ status, message: (error as Error).message }, 'auth request refused');
      },
    },
    logger: {
      level: config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? 'debug' : 'warn',
      log: (level, message, ...args) => {
        if (message.includes('Base URL is not set')) return;
        authLog[level]({ args }, message);
      },
    },
    plugins: [
      bearer(),
      oauthPopup(),
      // TOTP with recovery codes (ASVS 6.3.3, docs/decisions/015). Only password sign-in asks
      // for the code: a social sign-in relies on the provider's own second factor.
      twoFactor({ issuer: config.SITE_NAME }),
      ...(config.OIDC_ISSUER
        ? [
            genericOAuth({
              config: [
                {
                  providerId: OIDC_PROVIDER_ID,
                  name: config.OIDC_NAME,
                  discoveryUrl: `${config.OIDC_ISSUER.replace(/\/+$/, '')}/.well-known/openid-configuration`,
                  clientId: config.OIDC_CLIENT_ID!,
                  clientSecret: config.OIDC_CLIENT_SECRET,
                  scopes: ['openid', 'email', 'profile'],
                },
              ],
            }),
          ]
        : []),
    ],
  });
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** better-auth's tables, created in code (its CLI crashes on Node 20). */
export async function migrateAuthTables(auth: Auth): Promise<void> {
  const { runMigrations } = await getMigrations(auth.options);
  await runMigrations();
}

export interface AuthCall {
  auth: Auth;
  config: Pick<Config, 'PUBLIC_URL'>;
  request: Request;
  clientIp: string;
}

/**
 * A page action's call into better-auth, made through its HTTP handler exactly as the browser
 * would make it (so the base URL, cookies and origin checks are the same for forms with and
 * without JavaScript). The caller forwards the answer's Set-Cookie.
 */
export async function callAuth({ auth, config, request, clientIp }: AuthCall, path: string, body: unknown): Promise<Response> {
  const origin = expectedOrigin(request.url, config.PUBLIC_URL);
  const headers = new Headers({
    'content-type': 'application/json',
    origin,
    'x-afterglow-client-ip': clientIp,
  });
  for (const name of ['cookie', 'user-agent', 'accept-language']) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  return auth.handler(new Request(new URL(`/api/auth${path}`, origin), { method: 'POST', headers, body: JSON.stringify(body) }));
}

/**
 * The auth port of one request (docs/decisions/033): page actions reach better-auth only
 * through it, and each call counts the endpoint's rules of AUTH_ENDPOINT_LIMITS first, the
 * same counters /api/auth/* counts.
 */
export function authPort(
  deps: { auth: Auth; config: Config },
  request: Request | undefined,
  clientIp: string,
  limit: (rule: RateLimitRule) => Promise<void>,
): AuthPort {
  const session = async () => (request ? deps.auth.api.getSession({ headers: request.headers }) : null);
  return {
    async call(path, body) {
      if (!request) throw new Error(`auth call ${path} outside a request`);
      for (const rule of clientRulesOf(path)) await limit(rule);
      return callAuth({ auth: deps.auth, config: deps.config, request, clientIp }, path, body);
    },
    async signOut() {
      if (!request) throw new Error('sign-out outside a request');
      const response = await deps.auth.api.signOut({ headers: request.headers, asResponse: true });
      if (response.status >= 500) throw new Error(`sign-out answered ${response.status}`);
      // better-auth reports success even when its database write failed; the session must be gone.
      if (await session()) throw new Error('the session outlived sign-out');
      return response;
    },
    sessionToken: async () => (await session())?.session.token ?? null,
    twoFactorEnabled: async () => Boolean(((await session())?.user as { twoFactorEnabled?: boolean | null } | undefined)?.twoFactorEnabled),
    providers: () => socialProviders(deps.config),
  };
}
