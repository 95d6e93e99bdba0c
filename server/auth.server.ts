import { randomBytes } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import { bearer, genericOAuth, oauthPopup, twoFactor } from 'better-auth/plugins';
import { passkey } from '@better-auth/passkey';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DialectName } from '~/db/schema';
import {
  ACCOUNT_WRITE_ENDPOINTS,
  AccountRuleError,
  checkAccountRequest,
  CURRENT_PASSWORD_ENDPOINTS,
  emailChangeLinkStale,
  emailChangeMails,
  recordAccountAnswer,
  resetLinkStored,
  resetPasswordMail,
  revokeResetLinks,
} from '~/features/users/account-rules.service.server';
import { commentsLeavingWith, commentsLeft, keepRepliesOfLeavingAccount, type LeavingComment } from '~/features/blogs/comments.service.server';
import { postsLeavingWith } from '~/features/federation/federation.service.server';
import { accountDeleted, createUserRecord, noteAccountLeaving, recordSignIn, syncProfileEmail } from '~/features/users/users.service.server';
import { passwordChangedMail } from '~/features/users/account-mails';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '~/features/users/users.schema';
import { isAppError, RateLimitedError } from '~/lib/core/errors';
import type { AuthPort, ServiceContext, SessionUser } from '~/lib/core/service-context';
import { checkAuthInput, fitUserToLimits } from './auth-input.server';
import type { Config } from './config.server';
import { mailLink } from '~/features/mail/mail-templates.server';
import { createMailer, type Mailer } from './adapters/smtp.server';
import { expectedOrigin } from './http/middleware/origin-check.server';
import { emailRateLimitKey } from './http/middleware/rate-limit.server';
import { clientRulesOf, emailRuleOf, type RateLimitRule } from '~/lib/core/rate-limits';

export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH };
export const SESSION_COOKIE_PREFIX = 'afterglow';
/** better-auth's provider id for the OIDC_* issuer (its callback is /api/auth/callback/oidc). */
export const OIDC_PROVIDER_ID = 'oidc';
/** A reset link works once, for an hour (docs/product.md#forgot-password). */
export const RESET_TOKEN_SECONDS = 60 * 60;
/** A mailed email-change link works for an hour, like a reset link. */
const EMAIL_CHANGE_SECONDS = 60 * 60;
/** Where a confirmed email change lands. */
const EMAIL_CHANGED_PATH = '/account?email=changed';

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
  dialect: DialectName;
  log: Logger;
  mailer?: Mailer;
  /** The service context of the request a hook runs for (server/context.server.ts serviceContext). */
  contextFor: (user: SessionUser | null, site: { clientIp?: string }) => ServiceContext;
}

/** The social providers this configuration offers, in button order: id and display name. */
export function socialProviders(config: Config): { id: string; name: string }[] {
  return [
    ...(config.GOOGLE_CLIENT_ID ? [{ id: 'google', name: 'Google' }] : []),
    ...(config.OIDC_ISSUER ? [{ id: OIDC_PROVIDER_ID, name: config.OIDC_NAME }] : []),
  ];
}

/** The passkeys' relying party: PUBLIC_URL's host name, or localhost for a site without one. */
export function passkeyRelyingParty(config: Pick<Config, 'PUBLIC_URL'>): string {
  return config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : 'localhost';
}

/** Where a social sign-in's profile photo may live, for the CSP's img-src. */
export function providerPhotoOrigins(config: Pick<Config, 'GOOGLE_CLIENT_ID' | 'OIDC_ISSUER'>): string[] {
  return [
    ...(config.GOOGLE_CLIENT_ID ? ['https://*.googleusercontent.com'] : []),
    ...(config.OIDC_ISSUER ? [new URL(config.OIDC_ISSUER).origin] : []),
  ];
}

/** The signed cookie naming the accounts this browser signed in to with their password (docs/decisions/049). */
const KNOWN_DEVICE_COOKIE = 'known_devices';
/** Accounts a browser is remembered for; the oldest is forgotten first. */
const KNOWN_DEVICE_ACCOUNTS = 5;
const KNOWN_DEVICE_SECONDS = 400 * 24 * 60 * 60;
/**
 * The users feature's refusals in better-auth's terms, with the codes clients already know: a
 * resting account ('account_resting', with Retry-After), the password rule ('PASSWORD_RULE'),
 * the suspension (its own code).
 */
function asAuthError(error: unknown): unknown {
  if (!isAppError(error)) return error;
  if (error instanceof RateLimitedError) return new APIError('TOO_MANY_REQUESTS', { message: error.message, code: 'account_resting' }, error.headers);
  if (error instanceof AccountRuleError) return new APIError('BAD_REQUEST', { message: error.message, code: error.authCode });
  return new APIError('FORBIDDEN', { message: error.message, code: error.code });
}

/**
 * better-auth owns accounts, passwords and sessions (docs/product.md#identity-provider).
 * Sessions live in the database, so any instance can serve any request.
 */
export function createAuth({ config, authDb, dialect, log, mailer, contextFor }: AuthDeps) {
  const authLog = log.child({ module: 'auth' });
  const mail = mailer ?? createMailer(config, log);
  /** The users feature's rules run with a context of no caller: better-auth's own step is the request. */
  const rules = () => contextFor(null, {});
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
  /** The current password an endpoint takes (CURRENT_PASSWORD_ENDPOINTS), checked by better-auth's hasher; a wrong one counts. */
  const checkPasswordFor = async (ctx: HookContext, userId: string, account: string | null) => {
    const password = (ctx.body as Record<string, unknown> | undefined)?.password;
    const { internalAdapter, password: hasher } = ctx.context;
    const credential = await internalAdapter.findCredentialAccount(userId);
    const right = typeof password === 'string' && credential?.password ? await hasher.verify({ hash: credential.password, password }) : false;
    if (right) return;
    if (account !== null) await recordAccountAnswer(rules(), { path: ctx.path, account, knownDevice: await knownDevice(ctx, account), wrongPassword: true });
    throw new APIError('BAD_REQUEST', { message: 'Invalid password', code: 'INVALID_PASSWORD' });
  };
  const refuseStaleEmailChange = async (ctx: HookContext) => {
    if (await emailChangeLinkStale(rules(), (ctx.query as Record<string, unknown> | undefined)?.token)) throw ctx.redirect(`${EMAIL_CHANGED_PATH.split('?')[0]}?email=stale`);
  };
  const tellPasswordChanged = async (ctx: HookContext) => {
    const session = ctx.context.session ?? (ctx.headers ? await auth.api.getSession({ headers: ctx.headers }) : null);
    if (!session) return;
    const message = passwordChangedMail(config.SITE_NAME, session.user, mailLink(config, '/forgot-password'));
    void mail.send(message).catch((error: unknown) => authLog.error({ err: error }, 'password changed mail failed'));
  };
  /** What an account being deleted leaves to tidy, between better-auth's two delete hooks. */
  const leaving = new Map<string, { blogIds: string[]; comments: LeavingComment[]; postIds: string[] }>();
  const auth = betterAuth({
    appName: config.SITE_NAME,
    secret: config.SESSION_SECRET,
    // Unset PUBLIC_URL: the origin is taken from each request, so the site works at
    // localhost, 127.0.0.1 or a LAN address alike (the README's PUBLIC_URL). Never for a mailed link, which
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
        void mail
          .send(resetPasswordMail(config.SITE_NAME, user, resetPasswordLink(config, token)))
          .catch((error: unknown) => authLog.error({ err: error }, 'password reset mail failed'));
      },
      onPasswordReset: async ({ user }) => revokeResetLinks(rules(), user.id),
    },
    // A new address is confirmed by a link mailed to it, and the old one is told at once with
    // the way to stop it (docs/decisions/067). Only the confirmed link changes the email.
    user: {
      changeEmail: { enabled: true, updateEmailWithoutVerification: false },
      // Deleting the account takes its password (checked in the hook below); what the cascade
      // cannot tidy is noted before and handed to the other features after (docs/decisions/067).
      // Others' replies under its comments are moved up first, so they do not go with them.
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          leaving.set(user.id, {
            ...(await noteAccountLeaving(rules(), user.id)),
            comments: await commentsLeavingWith(rules(), user.id),
            postIds: await postsLeavingWith(rules(), user.id),
          });
          await keepRepliesOfLeavingAccount(rules(), user.id);
        },
        afterDelete: async (user) => {
          const { blogIds, comments, postIds } = leaving.get(user.id) ?? { blogIds: [], comments: [], postIds: [] };
          leaving.delete(user.id);
          // Its comments, posts and actor that went out to the fediverse are deleted there (docs/decisions/088).
          await commentsLeft(rules(), user.id, comments);
          await accountDeleted(rules(), { userId: user.id, email: user.email, blogIds, postIds });
        },
      },
    },
    emailVerification: {
      expiresIn: EMAIL_CHANGE_SECONDS,
      sendVerificationEmail: async ({ user, token }) => {
        const confirmUrl = mailLink(config, `/api/auth/verify-email?${new URLSearchParams({ token, callbackURL: EMAIL_CHANGED_PATH })}`);
        const forgotUrl = mailLink(config, '/forgot-password');
        for (const message of await emailChangeMails(rules(), { userId: user.id, newEmail: user.email, siteName: config.SITE_NAME, confirmUrl, forgotUrl })) {
          void mail.send(message).catch((error: unknown) => authLog.error({ err: error }, 'email change mail failed'));
        }
      },
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
            await createUserRecord(rules(), { id: user.id, email: user.email, name: user.name, image: user.image ?? null });
          },
        },
        update: {
          before: async (user) => fitUserToLimits(user),
          // A confirmed email change: the stored profile follows the account's address.
          after: async (user) => {
            await syncProfileEmail(rules(), user.id, user.email);
          },
        },
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
            await resetLinkStored(rules(), verification);
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
            await recordSignIn(rules(), session.userId);
          },
        },
      },
    },
    // One thin hook each way: it finds who asks and for which account, and the users feature
    // applies the rules (app/features/users/account-rules.service.server.ts).
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        checkAuthInput(ctx.path, ctx.body);
        if (ctx.path === '/verify-email') await refuseStaleEmailChange(ctx);
        // The full API, not the hook's own reader: a bearer token is turned into a session by
        // a plugin's hook, which runs after this one.
        const session = ACCOUNT_WRITE_ENDPOINTS.has(ctx.path) && ctx.headers ? await auth.api.getSession({ headers: ctx.headers }) : null;
        const user = session ? { id: session.user.id, email: session.user.email, name: session.user.name, image: session.user.image ?? null } : null;
        const account = emailRuleOf(ctx.path) ? await accountOf(ctx) : null;
        const request = { path: ctx.path, body: ctx.body, account, knownDevice: account !== null && (await knownDevice(ctx, account)) };
        await checkAccountRequest(contextFor(user, { clientIp: ctx.headers?.get('x-afterglow-client-ip') ?? '' }), request).catch((error: unknown) => {
          throw asAuthError(error);
        });
        if (CURRENT_PASSWORD_ENDPOINTS.has(ctx.path) && session) await checkPasswordFor(ctx, session.user.id, account);
      }),
      // Once the answer is known: a wrong password counts against the account; a right one at
      // sign-in remembers this browser for it (docs/decisions/049).
      after: createAuthMiddleware(async (ctx) => {
        const returned = ctx.context.returned;
        if (ctx.path === '/change-password' && !isAPIError(returned)) await tellPasswordChanged(ctx);
        // A change of email counted its wrong password before better-auth ran (checkPasswordFor).
        if (emailRuleOf(ctx.path)?.counts !== 'failures' || CURRENT_PASSWORD_ENDPOINTS.has(ctx.path)) return;
        const wrongPassword = isAPIError(returned) && (ctx.path === '/sign-in/email' ? returned.statusCode === 401 : returned.body?.code === 'INVALID_PASSWORD');
        const account = await accountOf(ctx);
        if (account === null) return;
        await recordAccountAnswer(rules(), { path: ctx.path, account, knownDevice: await knownDevice(ctx, account), wrongPassword });
        if (!wrongPassword && ctx.path === '/sign-in/email' && !isAPIError(returned)) await rememberDevice(ctx, account);
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
    // Our own limiter (server/http/middleware/rate-limit.server.ts) runs in front of the auth routes.
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
      // Sign-in with a passkey instead of a password (docs/decisions/075). The relying party is
      // PUBLIC_URL's host; without it, localhost (a browser refuses a passkey on a bare IP).
      passkey({ rpID: passkeyRelyingParty(config), rpName: config.SITE_NAME, ...(config.PUBLIC_URL ? { origin: new URL(config.PUBLIC_URL).origin } : {}) }),
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
    async createPasswordlessAccount({ email, name }) {
      const { internalAdapter } = await deps.auth.$context;
      const user = await internalAdapter.createUser({ email: email.toLowerCase(), name, emailVerified: false }, { method: 'admin' });
      return { id: user.id };
    },
    async passwordLink(userId, seconds) {
      const { internalAdapter } = await deps.auth.$context;
      // The same token and identifier better-auth's own reset request makes, so its reset
      // endpoint and our reset page take it unchanged; only its lifetime is the caller's.
      const token = randomBytes(24).toString('base64url');
      await internalAdapter.createVerificationValue({ value: userId, identifier: `reset-password:${token}`, expiresAt: new Date(Date.now() + seconds * 1000) });
      return resetPasswordLink(deps.config, token);
    },
  };
}
