import { discardImage, uploadSignUpImage } from '~/features/images/images.service.server';
import { AppError, isAppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { type ServiceContext, userOrThrow401 } from '~/lib/core/service-context';
import { authErrorMessage, forwardCookies, totpSetup, type TotpSetup, twoFactorErrorMessage, verifyPath } from './two-factor.server';

export { hasTwoFactorChallenge } from './two-factor.server';
import { type ChangeEmailInput, type ChangePasswordInput, type LogInInput, sameEmail, type SignUpInput } from './users.schema';
import { assertOwnEmail } from './users.service.server';
import { listPasskeys } from './users.repo.server';

/**
 * Account flows as use cases (docs/decisions/033): sign-up, sign-in and its code step,
 * the reset mail and the reset, two-factor set-up. Each reaches better-auth only through
 * `ctx.auth`, which counts the endpoint's rate rules (the same counters as /api/auth/*). Routes
 * parse the form, call one of these, and turn the outcome into data or a redirect.
 */
export type AccountOutcome<T = object> =
  | ({ ok: true; cookies: Headers } & T)
  | { ok: false; status: number; message: string; field?: 'image'; restart?: boolean; cookies?: Headers };

const refused = (status: number, message: string, extra: { field?: 'image'; restart?: boolean; cookies?: Headers } = {}) => ({ ok: false as const, status, message, ...extra });

/** Over a rate limit, or any other refusal a use case throws: an outcome the form can show. */
async function outcomeOf<T>(run: () => Promise<AccountOutcome<T>>): Promise<AccountOutcome<T>> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error) && error.status < 500) return refused(error.status, error.message, error.field === 'image' ? { field: 'image' } : {});
    throw error;
  }
}

/** Email and password; a two-factor account gets the code step's cookie instead of a session. */
export function signIn(ctx: ServiceContext, input: LogInInput): Promise<AccountOutcome<{ twoFactor: boolean }>> {
  return outcomeOf(async () => {
    const response = await ctx.auth.call('/sign-in/email', { ...input, rememberMe: true });
    if (!response.ok) {
      const { message } = await authErrorMessage(response, MESSAGES.invalidCredentials);
      return refused(response.status === 429 ? 429 : 401, message);
    }
    const body = (await response.clone().json().catch(() => null)) as { twoFactorRedirect?: boolean } | null;
    return { ok: true, cookies: forwardCookies(response), twoFactor: Boolean(body?.twoFactorRedirect) };
  });
}

/** The code step of a sign-in: the app's 6-digit code or a recovery code (once each). */
export function verifySignInCode(ctx: ServiceContext, code: string): Promise<AccountOutcome> {
  return outcomeOf(async () => {
    if (!code) return refused(400, MESSAGES.twoFactorCodeRequired);
    const response = await ctx.auth.call(verifyPath(code), { code, trustDevice: false });
    if (response.ok) return { ok: true, cookies: forwardCookies(response) };
    const { code: reason } = await authErrorMessage(response, MESSAGES.serverError);
    const { message, restart } = twoFactorErrorMessage(reason, response.status);
    return refused(response.status === 429 ? 429 : 401, message, { restart, cookies: forwardCookies(response) });
  });
}

/**
 * A new account, signed in. The photo is counted, decoded and stored once, before the account
 * exists, and the account is made with it in one call: a bad file leaves no account, and an
 * account is never left half made (created but not signed in, or without its photo).
 */
export function signUp(ctx: ServiceContext, input: Omit<SignUpInput, 'terms'> & { image: Buffer | null }): Promise<AccountOutcome> {
  return outcomeOf(async () => {
    const { email, name, password } = input;
    let image: string | undefined;
    if (input.image) {
      try {
        image = (await uploadSignUpImage(ctx, input.image)).url;
      } catch (error) {
        if (isAppError(error) && error.code !== 'rate_limited') return refused(error.status, error.message, { field: 'image' });
        throw error;
      }
    }
    const response = await ctx.auth.call('/sign-up/email', { email, name, password, ...(image ? { image } : {}) }).catch(async (error: unknown) => {
      if (image) await discardImage(ctx, image);
      throw error;
    });
    if (response.ok) return { ok: true, cookies: forwardCookies(response) };
    if (image) await discardImage(ctx, image);
    const { message, code } = await authErrorMessage(response, MESSAGES.serverError);
    return refused(response.status, code?.startsWith('USER_ALREADY_EXISTS') ? MESSAGES.emailTaken : message);
  });
}

/** Ends the caller's session (the cookie is cleared with `cookies`); throws when it could not be ended. */
export async function signOut(ctx: ServiceContext): Promise<{ cookies: Headers }> {
  return { cookies: forwardCookies(await ctx.auth.signOut()) };
}

/**
 * The reset mail. The answer is the same whether or not the email has an account, so it tells
 * nobody who is a member (docs/product.md#forgot-password).
 */
export function requestPasswordReset(ctx: ServiceContext, email: string): Promise<AccountOutcome> {
  return outcomeOf(async () => {
    const response = await ctx.auth.call('/request-password-reset', { email, redirectTo: '/reset-password' });
    // The per-account limit (counted inside better-auth, for every door) says the same for any email.
    if (response.status === 429) return refused(429, (await authErrorMessage(response, MESSAGES.tooManyRequests)).message);
    if (!response.ok) ctx.log.warn({ status: response.status }, 'password reset request refused');
    return { ok: true, cookies: new Headers() };
  });
}

/** A new password through the mailed link's token. */
export function resetPassword(ctx: ServiceContext, input: { token: string; password: string }): Promise<AccountOutcome> {
  return outcomeOf(async () => {
    const response = await ctx.auth.call('/reset-password', { token: input.token, newPassword: input.password });
    if (!response.ok) return refused(400, MESSAGES.resetLinkInvalid);
    return { ok: true, cookies: forwardCookies(response) };
  });
}

/** Why better-auth refused a password or email change, in the form's words. */
async function changeRefusal(response: Response): Promise<{ ok: false; status: number; message: string }> {
  const { code, message } = await authErrorMessage(response, MESSAGES.serverError);
  if (response.status === 429 || response.status === 403) return refused(response.status, message);
  if (code === 'INVALID_PASSWORD') return refused(400, MESSAGES.wrongCurrentPassword);
  if (code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') return refused(400, MESSAGES.noPasswordYet);
  return refused(response.status >= 500 ? 500 : 400, message);
}

/**
 * A new password for the signed-in account: the current one is checked, every other session
 * ends, and the owner is mailed that it changed (server/auth.server.ts, whichever door asked).
 */
export function changePassword(ctx: ServiceContext, input: ChangePasswordInput): Promise<AccountOutcome> {
  return accountChange(ctx, '/change-password', { ...input, revokeOtherSessions: true });
}

/** A change of the signed-in account through one of better-auth's endpoints; its refusal as the form shows it. */
function accountChange(ctx: ServiceContext, path: string, body: Record<string, unknown>): Promise<AccountOutcome> {
  return outcomeOf<object>(async () => {
    userOrThrow401(ctx);
    const response = await ctx.auth.call(path, body);
    if (!response.ok) return changeRefusal(response);
    return { ok: true, cookies: forwardCookies(response) };
  });
}

/**
 * Asks for a new email: a link goes to the new address (the change happens when it is opened)
 * and the old address is told, with the way to stop it (docs/decisions/067).
 */
export function requestEmailChange(ctx: ServiceContext, input: ChangeEmailInput): Promise<AccountOutcome> {
  return outcomeOf<object>(async () => {
    const user = userOrThrow401(ctx);
    if (sameEmail(user.email, input.newEmail)) return refused(400, MESSAGES.sameEmailRefused);
    const response = await ctx.auth.call('/change-email', { newEmail: input.newEmail, password: input.password, callbackURL: '/account?email=changed' });
    if (!response.ok) return changeRefusal(response);
    return { ok: true, cookies: forwardCookies(response) };
  });
}

/**
 * Deletes the signed-in account for good, with its password (docs/decisions/067); the session
 * cookie is cleared with `cookies`.
 */
export function deleteOwnAccount(ctx: ServiceContext, password: string): Promise<AccountOutcome> {
  return accountChange(ctx, '/delete-user', { password });
}

/** One of the account's passkeys as /account lists it (docs/decisions/075). */
export interface PasskeyView {
  id: string;
  name: string;
  addedAt: string | null;
}

/** The signed-in person's passkeys, oldest first. */
export async function myPasskeys(ctx: ServiceContext): Promise<PasskeyView[]> {
  const user = userOrThrow401(ctx);
  return (await listPasskeys(ctx.db, user.id)).map((row) => ({ id: row.id, name: row.name || MESSAGES.passkeyUnnamed, addedAt: row.createdAt }));
}

/** Removes one of the signed-in person's passkeys, through better-auth (which checks it is theirs; a suspended account may not). */
export function removePasskey(ctx: ServiceContext, id: string): Promise<AccountOutcome> {
  return accountChange(ctx, '/passkey/delete-passkey', { id });
}

export type TwoFactorIntent = 'enable' | 'confirm' | 'disable';

/** Two-factor set-up (password → key and recovery codes), its first code, and removal (password). */
export function changeTwoFactor(ctx: ServiceContext, intent: TwoFactorIntent, secret: string): Promise<AccountOutcome<{ setup?: TotpSetup }>> {
  return outcomeOf(async () => {
    if (intent === 'confirm' ? !/^\d{6}$/.test(secret) : !secret) {
      return refused(400, intent === 'confirm' ? MESSAGES.twoFactorInvalidCode : MESSAGES.twoFactorWrongPassword);
    }
    const response =
      intent === 'confirm' ? await ctx.auth.call('/two-factor/verify-totp', { code: secret }) : await ctx.auth.call(`/two-factor/${intent}`, { password: secret });
    if (!response.ok) {
      const { code, message } = await authErrorMessage(response, MESSAGES.serverError);
      // 403: the account may not change (a suspension, checked inside better-auth for every door).
      if (response.status === 403) return refused(403, message);
      // The account's own wrong passwords (docs/decisions/049): the answer says what happened.
      if (response.status === 429 && code === 'account_resting') return refused(429, message);
      return refused(response.status === 429 ? 429 : 400, twoFactorErrorMessage(code, response.status).message);
    }
    if (intent !== 'enable') return { ok: true, cookies: forwardCookies(response) };
    const { totpURI, backupCodes } = (await response.json()) as { totpURI: string; backupCodes: string[] };
    return { ok: true, cookies: forwardCookies(response), setup: await totpSetup(totpURI, backupCodes) };
  });
}

/** The redirect flow of a social sign-in: the provider's URL, or null when it cannot start. */
export async function startSocialSignIn(ctx: ServiceContext, provider: string, redirectTo: string): Promise<{ url: string; cookies: Headers } | null> {
  const response = await ctx.auth.call('/sign-in/social', {
    provider,
    callbackURL: `/login?${new URLSearchParams({ social: 'done', redirectTo })}`,
    errorCallbackURL: `/login?${new URLSearchParams({ redirectTo })}`,
    disableRedirect: true,
  });
  const body = (await response.json().catch(() => null)) as { url?: string } | null;
  return response.ok && body?.url ? { url: body.url, cookies: forwardCookies(response) } : null;
}

/**
 * A bearer token only for a caller already signed in as that email (docs/product.md#tokens): their session's
 * own token, so it expires with the session and stops working at logout.
 */
export async function issueToken(ctx: ServiceContext, input: { email: string }): Promise<{ token: string }> {
  assertOwnEmail(ctx, input.email);
  const token = await ctx.auth.sessionToken();
  if (!token) throw new AppError('unauthenticated', MESSAGES.authRequired);
  return { token };
}
