import { assertCanWrite } from '~/kernel/standing.server';
import { AppError, RateLimitedError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { emailRuleOf } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import { PasswordSchema } from './users.schema';

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
  const field = PASSWORD_FIELDS[request.path];
  if (!field) return;
  const result = PasswordSchema.safeParse((request.body as Record<string, unknown> | undefined)?.[field]);
  if (!result.success) throw new AppError('bad_request', result.error.issues[0]!.message, field);
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
