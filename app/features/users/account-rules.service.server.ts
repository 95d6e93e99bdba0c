import { assertCanWrite } from '~/kernel/standing.server';
import { AppError, RateLimitedError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { emailRuleOf } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import { PasswordSchema } from './users.schema';
import * as repo from './users.repo.server';
import { confirmNewEmailMail, emailChangeAskedMail, type Mail } from './account-mails';

/**
 * The account rules better-auth's endpoints answer to, whichever door a request came through
 * (/api/auth or a page form through the auth port). better-auth calls them from one thin hook in
 * server/auth.server.ts with the request's own service context (docs/decisions/056).
 */

/** Endpoints that choose a password, and the body field that carries it. */
const PASSWORD_FIELDS: Readonly<Record<string, string>> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
  '/set-password': 'newPassword',
};

/**
 * better-auth's own endpoints that change an account. A suspended user can read but not write
 * (docs/decisions/028): these answer 403 with the suspension's message, like every write of ours.
 * Signing in and out, and ending sessions, stay open.
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
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
  '/passkey/update-passkey',
  '/passkey/delete-passkey',
]);

export interface AccountRequest {
  /** better-auth's endpoint path ('/sign-in/email'). */
  path: string;
  body: unknown;
  /** The account a per-account rule counts for (the body's email at sign-in and reset, else the session's), or null. */
  account: string | null;
  /** This browser signed in to that account with its password before: others' tries do not hold it back (docs/decisions/049). */
  knownDevice: boolean;
}

/** A refusal with the code better-auth's clients know it by ('PASSWORD_RULE', 'PASSWORD_REQUIRED'). */
export class AccountRuleError extends AppError {
  constructor(
    message: string,
    readonly authCode: string,
    field?: string,
  ) {
    super('bad_request', message, field);
  }
}

/** The refusal of an account's per-account rule, with a message that says what happened. */
function resting(path: string, retryAfter: number): RateLimitedError {
  const message = path === '/sign-in/email' ? MESSAGES.signInResting(retryAfter) : path === '/request-password-reset' ? MESSAGES.resetResting(retryAfter) : MESSAGES.passwordCheckResting(retryAfter);
  return new RateLimitedError(message, { 'Retry-After': String(retryAfter) });
}

/**
 * Before better-auth serves an account request: a suspended caller may not change the account,
 * the account's own limit (besides the client's, counted in front) must not be spent, and a
 * chosen password must meet the product's rule (docs/product.md) on every way of choosing one.
 * `ctx.user` is the caller's session, if any.
 */
export async function checkAccountRequest(ctx: ServiceContext, request: AccountRequest): Promise<void> {
  if (ACCOUNT_WRITE_ENDPOINTS.has(request.path) && ctx.user) await assertCanWrite(ctx);
  const perAccount = emailRuleOf(request.path);
  if (perAccount && request.account !== null && !request.knownDevice) {
    const verdict = await ctx.limitAccount(perAccount, request.account, perAccount.counts === 'failures' ? 'check' : 'hit');
    if (!verdict.allowed) throw resting(request.path, verdict.retryAfter);
  }
  // better-auth deletes on the session alone when no password is sent: a borrowed session must not.
  if (request.path === '/delete-user' && typeof (request.body as Record<string, unknown> | undefined)?.password !== 'string') {
    throw new AccountRuleError('Password is required', 'PASSWORD_REQUIRED', 'password');
  }
  const field = PASSWORD_FIELDS[request.path];
  if (!field) return;
  const result = PasswordSchema.safeParse((request.body as Record<string, unknown> | undefined)?.[field]);
  if (!result.success) throw new AccountRuleError(result.error.issues[0]!.message, 'PASSWORD_RULE', field);
}

/**
 * An email change takes the current password as well as a session: a borrowed session alone
 * must not move the account to another address (docs/decisions/067). better-auth checks it
 * (the hook asks it to); a wrong one counts like any other (recordAccountAnswer).
 */
export const CURRENT_PASSWORD_ENDPOINTS: ReadonlySet<string> = new Set(['/change-email']);

/**
 * Only the newest reset link of a user works: a new request, or a completed reset, ends every
 * other one (`keepId` is the new link's own row), and a deleted account leaves none.
 */
export async function revokeResetLinks(ctx: Pick<ServiceContext, 'db'>, userId: string, keepId?: string): Promise<void> {
  await repo.deleteResetLinks(ctx.db, userId, keepId);
}

/** A mailed link was stored: when it is a reset link, it is the only one of its user that works. */
export async function resetLinkStored(ctx: Pick<ServiceContext, 'db'>, link: { id: string; identifier: string; value: string }): Promise<void> {
  if (link.identifier.startsWith(repo.RESET_IDENTIFIER_PREFIX)) await revokeResetLinks(ctx, link.value, link.id);
}

/**
 * Whether a mailed email-change link was asked before the account's password last changed: a
 * new password ends a stranger's change. The token's claims are read without checking its
 * signature (better-auth checks it next): this reading can only refuse, never let in.
 */
export async function emailChangeLinkStale(ctx: Pick<ServiceContext, 'db'>, token: unknown): Promise<boolean> {
  const claims = emailTokenClaims(token);
  if (!claims) return false;
  const passwordSet = await repo.passwordSetAt(ctx.db, claims.userId);
  // `iat` is in whole seconds: a password saved in the same second as the link still counts as before it.
  return passwordSet !== null && passwordSet.getTime() >= claims.issuedAt + 1000;
}

function emailTokenClaims(token: unknown): { issuedAt: number; userId: string } | null {
  if (typeof token !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iat?: unknown; userId?: unknown };
    return typeof payload.iat === 'number' && typeof payload.userId === 'string' ? { issuedAt: payload.iat * 1000, userId: payload.userId } : null;
  } catch {
    return null;
  }
}

/** After better-auth answered: a wrong password counts against the account, unless this browser is known to it. */
export async function recordAccountAnswer(ctx: ServiceContext, request: Omit<AccountRequest, 'body'> & { wrongPassword: boolean }): Promise<void> {
  const perAccount = emailRuleOf(request.path);
  if (perAccount?.counts !== 'failures' || request.account === null) return;
  if (request.wrongPassword && !request.knownDevice) await ctx.limitAccount(perAccount, request.account, 'fail');
}

/** The reset mail: the link works once, for an hour; the text never says more than the owner needs. */
export function resetPasswordMail(siteName: string, user: { email: string; name: string | null }, url: string): { to: string; subject: string; text: string } {
  return {
    to: user.email,
    subject: `Reset your ${siteName} password`,
    text: [
      `Hello ${user.name || 'there'},`,
      '',
      `Someone asked to reset the password of your ${siteName} account. To choose a new one, open this link within an hour:`,
      '',
      url,
      '',
      'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * The mails of an asked email change (docs/decisions/067): the new address gets the link that
 * confirms it, the old one is told at once with the way to stop it. Only a change of address
 * mails a link: nobody is asked to verify the address they signed up with.
 */
export async function emailChangeMails(
  ctx: Pick<ServiceContext, 'db'>,
  change: { userId: string; newEmail: string; siteName: string; confirmUrl: string; forgotUrl: string },
): Promise<Mail[]> {
  const current = await repo.findAccount(ctx.db, change.userId);
  if (!current || current.email.toLowerCase() === change.newEmail.toLowerCase()) return [];
  return [confirmNewEmailMail(change.siteName, current, change.newEmail, change.confirmUrl), emailChangeAskedMail(change.siteName, current, change.newEmail, change.forgotUrl)];
}
