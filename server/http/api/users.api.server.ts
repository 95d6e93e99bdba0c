import { z } from 'zod';
import { issueToken } from '~/features/users/account.service.server';
import { presentProfile, presentUserRecord } from '~/features/users/users.presenter';
import { getOwnProfile, saveOwnUserRecord, updateOwnProfile } from '~/features/users/users.service.server';
import { EmailSchema, PasswordSchema, SaveUserSchema, TokenRequestSchema, UpdateProfileSchema } from '~/features/users/users.schema';
import { AUTH_INPUT } from '../../auth-input.server';
import { authEndpoint, defineOperation, type Operation } from './endpoints.server';
import { bad, denied, MessageResponse, ProfileResponse, ProfileUpdateResponse, TokenResponse, UserRecordResponse } from './responses.server';

const SignUpBody = AUTH_INPUT['/sign-up/email'].extend({ password: PasswordSchema });
const UpdateUserBody = AUTH_INPUT['/update-user'];
const SignInBody = z.object({ email: z.email(), password: z.string(), rememberMe: z.boolean().optional() });
const ResetRequestBody = z.object({ email: z.email(), redirectTo: z.string().optional() });
const ResetBody = z.object({ newPassword: z.string().min(8).max(128), token: z.string() });
const PasswordBody = z.object({ password: z.string() });
const CodeBody = z.object({ code: z.string() });
const ChangePasswordBody = z.object({ currentPassword: z.string(), newPassword: PasswordSchema, revokeOtherSessions: z.boolean().optional() });
const ChangeEmailBody = z.object({ newEmail: z.email(), password: z.string(), callbackURL: z.string().optional() });
/** A WebAuthn answer as @simplewebauthn/browser gives it (better-auth's passkey plugin checks it). */
const PasskeyAnswerBody = z.object({ response: z.record(z.string(), z.unknown()), name: z.string().max(64).optional() });
const PasskeyIdBody = z.object({ id: z.string() });

/**
 * better-auth's endpoints under /api/auth, which it serves itself: declared here for the sign-in
 * check in front of them (server/http/api/index.server.ts), their limits (AUTH_ENDPOINT_LIMITS) and
 * the document.
 */
export const ACCOUNT_OPERATIONS: Operation[] = [
  authEndpoint({ method: 'post', path: '/api/auth/sign-up/email', tag: 'Accounts', auth: 'none', summary: 'Sign up with email and password (sets the session cookie; the `set-auth-token` header carries a bearer token); name and image follow the sign-up and profile forms’ rules', body: SignUpBody, responses: { 200: { description: 'Signed up and signed in' }, ...bad, 422: { description: 'Email already registered', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/sign-in/email', tag: 'Accounts', auth: 'none', summary: 'Sign in with email and password', body: SignInBody, responses: { 200: { description: 'Signed in' }, 401: { description: 'Wrong email or password', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/update-user', tag: 'Accounts', auth: 'required', summary: "Change the caller's account name or photo (the same rules as the profile form)", body: UpdateUserBody, responses: { 200: { description: 'Changed' }, ...bad, 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Suspended: this and better-auth’s other account changes (change-password, change-email, two-factor…) answer the suspension’s message', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/sign-out', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'End the session (the cookie and its bearer token stop working)', responses: { 200: { description: 'Signed out' } } }),
  authEndpoint({ method: 'get', path: '/api/auth/get-session', tag: 'Accounts', auth: 'optional', summary: 'The current session and user, or null', responses: { 200: { description: 'Session or null' } } }),
  authEndpoint({ method: 'post', path: '/api/auth/request-password-reset', tag: 'Accounts', auth: 'none', summary: 'Mail a single-use reset link (the answer never tells whether the email is registered)', body: ResetRequestBody, responses: { 200: { description: 'Accepted' }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/reset-password', tag: 'Accounts', auth: 'none', summary: 'Set a new password with the token from the mail; ends all other sessions', body: ResetBody, responses: { 200: { description: 'Password changed' }, 400: { description: 'Invalid or expired token', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/enable', tag: 'Accounts', auth: 'required', summary: 'Start two-factor set-up: answers `totpURI` (for the authenticator app) and 10 single-use `backupCodes`; on after a first code at verify-totp', body: PasswordBody, responses: { 200: { description: 'Set-up started' }, 400: { description: 'Wrong password', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/verify-totp', tag: 'Accounts', auth: 'optional', summary: "The authenticator app's 6-digit code: finishes a sign-in (with the `two_factor` cookie from sign-in, answering the session and its bearer token), or confirms set-up", body: CodeBody, responses: { 200: { description: 'Signed in, or two-factor on' }, 401: { description: 'Wrong code, or no pending sign-in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/verify-backup-code', tag: 'Accounts', auth: 'none', summary: 'Finish a sign-in with a recovery code instead (each works once)', body: CodeBody, responses: { 200: { description: 'Signed in' }, 401: { description: 'Wrong or used code, or no pending sign-in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/disable', tag: 'Accounts', auth: 'required', summary: 'Turn two-factor sign-in off', body: PasswordBody, responses: { 200: { description: 'Off' }, 400: { description: 'Wrong password', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/get-totp-uri', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'The authenticator URI again (password required)', body: PasswordBody, responses: { 200: { description: 'The URI' }, 400: { description: 'Wrong password or two-factor off', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/two-factor/generate-backup-codes', tag: 'Accounts', auth: 'required', summary: 'New recovery codes (the old ones stop working; password required)', body: PasswordBody, responses: { 200: { description: 'The new codes' }, 400: { description: 'Wrong password or two-factor off', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  // The account's own changes (docs/decisions/067).
  authEndpoint({ method: 'post', path: '/api/auth/change-password', tag: 'Accounts', auth: 'required', summary: 'A new password with the current one; `revokeOtherSessions` ends every other session; the owner is mailed', body: ChangePasswordBody, responses: { 200: { description: 'Changed' }, 400: { description: 'Wrong current password or a weak new one', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many wrong passwords', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/change-email', tag: 'Accounts', auth: 'required', summary: 'Ask for a new email (password required): a link goes to the new address, the old one is told; the email changes when the link is opened', body: ChangeEmailBody, responses: { 200: { description: 'Mailed' }, 400: { description: 'Wrong password or a bad address', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many requests', schema: MessageResponse } } }),
  // Passkeys (docs/decisions/075): each ceremony's challenge is kept server-side, named by a signed cookie.
  authEndpoint({ method: 'get', path: '/api/auth/passkey/generate-register-options', tag: 'Accounts', auth: 'required', summary: 'Options to make a new passkey on this device (a recent sign-in required)', responses: { 200: { description: 'WebAuthn creation options' }, 401: { description: 'Not signed in', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/passkey/verify-registration', tag: 'Accounts', auth: 'required', summary: 'Keep the passkey the authenticator made (its answer to the options above), with an optional name', body: PasskeyAnswerBody, responses: { 200: { description: 'The passkey' }, 400: { description: 'Not verified', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse } } }),
  authEndpoint({ method: 'get', path: '/api/auth/passkey/generate-authenticate-options', tag: 'Accounts', auth: 'optional', summary: 'Options to sign in with a passkey', responses: { 200: { description: 'WebAuthn request options' } } }),
  authEndpoint({ method: 'post', path: '/api/auth/passkey/verify-authentication', tag: 'Accounts', auth: 'none', summary: 'Sign in with a passkey: the authenticator’s signed answer to the options above (counts as a sign-in attempt)', body: PasskeyAnswerBody, responses: { 200: { description: 'Signed in' }, 400: { description: 'Not verified', schema: MessageResponse }, 401: { description: 'Unknown passkey', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } }),
  authEndpoint({ method: 'get', path: '/api/auth/passkey/list-user-passkeys', tag: 'Accounts', auth: 'required', summary: "The caller's passkeys", responses: { 200: { description: 'The passkeys' }, 401: { description: 'Not signed in', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/passkey/delete-passkey', tag: 'Accounts', auth: 'required', summary: 'Remove one of the caller’s passkeys', body: PasskeyIdBody, responses: { 200: { description: 'Removed' }, 401: { description: 'Not signed in', schema: MessageResponse }, 404: { description: 'No such passkey of the caller', schema: MessageResponse } } }),
  authEndpoint({ method: 'post', path: '/api/auth/delete-user', tag: 'Accounts', auth: 'required', summary: 'Delete the account for good (password required): its posts, comments, likes, follows, wishlist, sessions and queued mails go', body: PasswordBody, responses: { 200: { description: 'Deleted; the session cookie is cleared' }, 400: { description: 'Missing or wrong password', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many wrong passwords', schema: MessageResponse } } }),
];

const EMAIL_PARAM = z.object({ email: EmailSchema });

/** The account calls (docs/product.md#the-api). A token only for a caller already signed in as that email (account.service: issueToken). */
export const USER_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'post', path: '/api/jwt', standing: 'any', tag: 'Accounts', auth: 'required', summary: "A bearer token for the caller's own email", body: TokenRequestSchema, responses: { 200: { description: 'Token', schema: TokenResponse }, ...denied, ...bad } },
    async ({ c, ctx, body }) => c.json(await issueToken(ctx, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/users/jwt', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'The same as POST /api/jwt (name and photo may be sent too)', body: TokenRequestSchema, responses: { 200: { description: 'Token', schema: TokenResponse }, ...denied, ...bad } },
    async ({ c, ctx, body }) => c.json(await issueToken(ctx, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/users', tag: 'Accounts', auth: 'required', summary: "Save the caller's own user record (on social sign-up)", body: SaveUserSchema, responses: { 200: { description: 'Already saved', schema: UserRecordResponse }, 201: { description: 'Saved', schema: UserRecordResponse }, ...denied, ...bad } },
    async ({ c, ctx, body }) => {
      const { created, record } = await saveOwnUserRecord(ctx, body);
      return c.json({ ...presentUserRecord(record), insertedId: created ? record.uid : null }, created ? 201 : 200);
    },
  ),
  defineOperation(
    { method: 'get', path: '/api/update/{email}', params: EMAIL_PARAM, tag: 'Profile', auth: 'required', summary: "The caller's stored profile", responses: { 200: { description: 'Profile', schema: ProfileResponse }, ...denied, ...bad } },
    async ({ c, ctx, params }) => c.json(presentProfile(await getOwnProfile(ctx, params.email))),
  ),
  defineOperation(
    { method: 'patch', path: '/api/update/{email}', params: EMAIL_PARAM, tag: 'Profile', auth: 'required', summary: "Update the caller's name and photo", body: UpdateProfileSchema, responses: { 200: { description: 'Updated', schema: ProfileUpdateResponse }, ...denied, ...bad } },
    async ({ c, ctx, body, params }) => {
      const profile = await updateOwnProfile(ctx, params.email, body);
      return c.json({ modifiedCount: 1, ...presentProfile(profile) });
    },
  ),
];
