import { z } from 'zod';
import { BlogResponse, CommentResponse, Pending } from '~/features/blogs/blog-json.schema';
import { CommentSchema, CreateBlogSchema, ListBlogsQuerySchema, PageQuerySchema, UpdateBlogSchema } from '~/features/blogs/blogs.schema';
import { AuditPageSchema, GrantModeratorSchema, ModerationReasonSchema, REPORT_REASONS, REPORT_TARGET_TYPES, ReportSchema, ROLES, SuspendSchema } from '~/features/moderation/moderation.schema';
import { SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { ListNotificationsQuerySchema, MarkNotificationsReadSchema, NotificationSchema } from '~/features/notifications/notifications.schema';
import { PasswordSchema, SaveUserSchema, TokenRequestSchema, UpdateProfileSchema } from '~/features/users/users.schema';
import { AUTH_INPUT } from '../auth-input.server';
import { AUTH_ENDPOINT_LIMITS, RATE_LIMITS, type RateLimitRule } from '~/lib/rate-limits';
import { AddWishlistSchema, WishlistPageSchema } from '~/features/wishlist/wishlist.schema';

/**
 * The API's contract (issue 9 §4), generated from zod: request schemas are the very ones the
 * handlers validate with; response schemas are strict, and server/api/openapi.server.test.ts
 * checks real responses against them and every registered route against this list, so the
 * document cannot drift from the code.
 */

const text = z.string();
const id = z.string().describe('A blog, comment or wishlist id (UUID)');

export const MessageResponse = z.object({ message: text, code: text.optional(), field: text.optional(), requestId: text.optional() });
const wishlistBase = {
  _id: id,
  blogId: id,
  title: text,
  photo: text.nullable(),
  photo_position: text.nullable().describe("The blog's photo focus as a CSS `object-position`, while this item's copy of the photo is still the blog's; null otherwise"),
  email: text,
  category: text,
  description: text,
};
export const WishlistItemResponse = z.union([
  z.strictObject({ ...wishlistBase, createdAt: text }),
  z.strictObject({ ...wishlistBase, likeCount: z.number().int() }),
]);
export const LikedItemResponse = z.strictObject({ blogId: id, likes: z.number().int(), likedBy: z.array(text) });
export const ProfileResponse = z.strictObject({ name: text.nullable(), photo: text.nullable() });
export const ProfileUpdateResponse = ProfileResponse.extend({ modifiedCount: z.number().int() });
export const UserRecordResponse = z.strictObject({ name: text.nullable(), email: text, photo: text.nullable(), uid: text, insertedId: text.nullable() });
export const TokenResponse = z.strictObject({ token: text.describe('Send as `Authorization: Bearer …`; ends with the session') });
export const ImageResponse = z.strictObject({ success: z.literal(true), data: z.strictObject({ url: text }) });
export const InsertedResponse = z.strictObject({ insertedId: id });
export const ModifiedResponse = z.strictObject({ modifiedCount: z.number().int() });
export const DeletedResponse = z.strictObject({ deletedCount: z.number().int() });
export const SuccessResponse = z.strictObject({ success: z.boolean() });
export const SubscribedResponse = z.strictObject({ message: text });
const QueueItemResponse = z.strictObject({
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: text,
  blogId: text.nullable(),
  ownerId: text,
  title: text.nullable(),
  text: text.describe('What the target showed when it was first reported'),
  latestAt: text,
  reports: z.array(z.strictObject({ id: text, reporterName: text, reason: z.enum(REPORT_REASONS), details: text.nullable(), at: text })),
});
const StaffResponse = z.strictObject({ userId: text, name: text, email: text, role: z.enum(ROLES), since: text });
const AuditEntryResponse = z.strictObject({ id: text, actorId: text.nullable(), actorName: text, action: text, targetType: text, targetId: text, reason: text, at: text });
const SuspendedResponse = z.strictObject({ until: text.nullable().describe('null: for good'), sessionsEnded: z.number().int() });
const GrantedResponse = z.strictObject({ userId: text, modifiedCount: z.number().int() });
const PendingResponse = z.strictObject({
  pending: z.array(
    z.strictObject({ targetType: z.enum(['blog', 'comment']), targetId: text, blogId: text, ownerId: text, ownerName: text, title: text.nullable(), text, since: text }),
  ).describe('Blogs and comments of held accounts with more than SPAM_HOLD_MAX_LINKS links, the longest waiting first'),
  held: z.array(z.strictObject({ userId: text, name: text, heldUntil: text, blogs: z.number().int() })).describe('Accounts on the spam hold with blogs held'),
});
const UnreadCountResponse = z.strictObject({ unread: z.number().int() });
const CommentPostedResponse = z.strictObject({ success: z.boolean(), insertedId: id.optional().describe('The new reply (only when replying)'), pending: Pending });
const ThreadResponse = z.strictObject({ blogId: id, isOwner: z.boolean().describe('Whether the caller wrote the blog (may pin and hide)'), comments: z.array(CommentResponse).describe('The comment first, then every reply under it the caller may see, each right after what it answers') });
const CommentLikedResponse = z.strictObject({ modifiedCount: z.number().int(), likes: z.number().int() });

const SignUpBody = AUTH_INPUT['/sign-up/email'].extend({ password: PasswordSchema });
const UpdateUserBody = AUTH_INPUT['/update-user'];
const SignInBody = z.object({ email: z.email(), password: z.string(), rememberMe: z.boolean().optional() });
const ResetRequestBody = z.object({ email: z.email(), redirectTo: z.string().optional() });
const ResetBody = z.object({ newPassword: z.string().min(8).max(128), token: z.string() });
const PasswordBody = z.object({ password: z.string() });
const CodeBody = z.object({ code: z.string() });
const ImageBody = z.object({ image: z.string().describe('The image file (JPEG, PNG, WebP or GIF)') });

type Auth = 'none' | 'optional' | 'required';
/**
 * One declaration per endpoint (docs/decisions/033). It drives the route's registration, the
 * sign-in check (`required`: 401 before the input is read), the validation of the body and query
 * (server/api/endpoints.server.ts), this document, and the coverage test.
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: Auth;
  /** The rule its use case counts with ctx.limit (better-auth's endpoints: AUTH_ENDPOINT_LIMITS). */
  limit?: RateLimitRule;
  /**
   * `any`: a suspended account may call it too (signing out, a token for reading). Every other
   * state-changing call that needs sign-in refuses a suspended account before its input is read
   * (docs/decisions/048).
   */
  standing?: 'any';
  /**
   * A public read the page cache keeps for anonymous callers (server/middleware/page-cache.server.ts):
   * `lists` stays fresh while the lists version stands, `blog` while the `{id}` blog's revision does.
   */
  cache?: 'lists' | 'blog';
  query?: z.ZodType;
  body?: z.ZodType;
  multipart?: z.ZodType;
  responses: Record<number, { description: string; schema?: z.ZodType; list?: boolean; paged?: boolean }>;
}

const denied = { 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Not yours, or (for a change) the account is suspended', schema: MessageResponse } };
const bad = { 400: { description: 'Invalid input; `message` names the field', schema: MessageResponse } };
const staffOnly = { 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Not a moderator or admin, suspended, or acting on their own or on an equal or higher role’s account or content', schema: MessageResponse } };
const modNotFound = { 404: { description: 'No such target', schema: MessageResponse } };
const missing = { 404: { description: 'No such blog, or a Hidden blog of someone else', schema: MessageResponse } };

export const OPERATIONS: Operation[] = [
  { method: 'post', path: '/api/auth/sign-up/email', tag: 'Accounts', auth: 'none', summary: 'Sign up with email and password (sets the session cookie; the `set-auth-token` header carries a bearer token); name and image follow the sign-up and profile forms’ rules', body: SignUpBody, responses: { 200: { description: 'Signed up and signed in' }, ...bad, 422: { description: 'Email already registered', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/sign-in/email', tag: 'Accounts', auth: 'none', summary: 'Sign in with email and password', body: SignInBody, responses: { 200: { description: 'Signed in' }, 401: { description: 'Wrong email or password', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/update-user', tag: 'Accounts', auth: 'required', summary: "Change the caller's account name or photo (the same rules as the profile form)", body: UpdateUserBody, responses: { 200: { description: 'Changed' }, ...bad, 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Suspended: this and better-auth’s other account changes (change-password, change-email, two-factor…) answer the suspension’s message', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/sign-out', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'End the session (the cookie and its bearer token stop working)', responses: { 200: { description: 'Signed out' } } },
  { method: 'get', path: '/api/auth/get-session', tag: 'Accounts', auth: 'optional', summary: 'The current session and user, or null', responses: { 200: { description: 'Session or null' } } },
  { method: 'post', path: '/api/auth/request-password-reset', tag: 'Accounts', auth: 'none', summary: 'Mail a single-use reset link (the answer never tells whether the email is registered)', body: ResetRequestBody, responses: { 200: { description: 'Accepted' }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/reset-password', tag: 'Accounts', auth: 'none', summary: 'Set a new password with the token from the mail; ends all other sessions', body: ResetBody, responses: { 200: { description: 'Password changed' }, 400: { description: 'Invalid or expired token', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/enable', tag: 'Accounts', auth: 'required', summary: 'Start two-factor set-up: answers `totpURI` (for the authenticator app) and 10 single-use `backupCodes`; on after a first code at verify-totp', body: PasswordBody, responses: { 200: { description: 'Set-up started' }, 400: { description: 'Wrong password', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/verify-totp', tag: 'Accounts', auth: 'optional', summary: "The authenticator app's 6-digit code: finishes a sign-in (with the `two_factor` cookie from sign-in, answering the session and its bearer token), or confirms set-up", body: CodeBody, responses: { 200: { description: 'Signed in, or two-factor on' }, 401: { description: 'Wrong code, or no pending sign-in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/verify-backup-code', tag: 'Accounts', auth: 'none', summary: 'Finish a sign-in with a recovery code instead (each works once)', body: CodeBody, responses: { 200: { description: 'Signed in' }, 401: { description: 'Wrong or used code, or no pending sign-in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/disable', tag: 'Accounts', auth: 'required', summary: 'Turn two-factor sign-in off', body: PasswordBody, responses: { 200: { description: 'Off' }, 400: { description: 'Wrong password', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/get-totp-uri', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'The authenticator URI again (password required)', body: PasswordBody, responses: { 200: { description: 'The URI' }, 400: { description: 'Wrong password or two-factor off', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/auth/two-factor/generate-backup-codes', tag: 'Accounts', auth: 'required', summary: 'New recovery codes (the old ones stop working; password required)', body: PasswordBody, responses: { 200: { description: 'The new codes' }, 400: { description: 'Wrong password or two-factor off', schema: MessageResponse }, 401: { description: 'Not signed in', schema: MessageResponse }, 429: { description: 'Too many attempts', schema: MessageResponse } } },
  { method: 'post', path: '/api/jwt', standing: 'any', tag: 'Accounts', auth: 'required', summary: "A bearer token for the caller's own email", body: TokenRequestSchema, responses: { 200: { description: 'Token', schema: TokenResponse }, ...denied, ...bad } },
  { method: 'post', path: '/api/users/jwt', standing: 'any', tag: 'Accounts', auth: 'required', summary: 'The same as POST /api/jwt (spec §7 sends name and photo too)', body: TokenRequestSchema, responses: { 200: { description: 'Token', schema: TokenResponse }, ...denied, ...bad } },
  { method: 'post', path: '/api/users', tag: 'Accounts', auth: 'required', summary: "Save the caller's own user record (spec §7, on social sign-up)", body: SaveUserSchema, responses: { 200: { description: 'Already saved', schema: UserRecordResponse }, 201: { description: 'Saved', schema: UserRecordResponse }, ...denied, ...bad } },
  { method: 'get', path: '/api/update/{email}', tag: 'Profile', auth: 'required', summary: "The caller's stored profile", responses: { 200: { description: 'Profile', schema: ProfileResponse }, ...denied, ...bad } },
  { method: 'patch', path: '/api/update/{email}', tag: 'Profile', auth: 'required', summary: "Update the caller's name and photo", body: UpdateProfileSchema, responses: { 200: { description: 'Updated', schema: ProfileUpdateResponse }, ...denied, ...bad } },
  { method: 'get', path: '/api/blogs', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'Blogs, newest first; `search` filters by category; `q` searches title, short and long description (best match first, with a `snippet`). Public blogs, plus the caller’s own Hidden ones', query: ListBlogsQuerySchema, responses: { 200: { description: 'A page of blogs', schema: BlogResponse, list: true, paged: true }, ...bad } },
  { method: 'post', path: '/api/blogs', limit: RATE_LIMITS.blogWrite, tag: 'Blogs', auth: 'required', summary: 'Write a blog; the owner is the caller (`email`, `Name` in the body are ignored)', body: CreateBlogSchema, responses: { 201: { description: 'Created', schema: InsertedResponse }, ...denied, ...bad } },
  { method: 'get', path: '/api/recent-blog', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'The 6 newest public blogs', responses: { 200: { description: 'Blogs', schema: BlogResponse, list: true } } },
  { method: 'get', path: '/api/featuredblogs', cache: 'lists', tag: 'Blogs', auth: 'optional', summary: 'The 10 public blogs with the most likes (ties: views, then newest)', responses: { 200: { description: 'Blogs', schema: BlogResponse, list: true } } },
  { method: 'get', path: '/api/blogs/{id}', cache: 'blog', tag: 'Blogs', auth: 'optional', summary: 'One blog with its comments', responses: { 200: { description: 'The blog', schema: BlogResponse }, ...bad, ...missing } },
  { method: 'put', path: '/api/blogs/{id}', limit: RATE_LIMITS.blogWrite, tag: 'Blogs', auth: 'required', summary: 'Update a blog (owner only); the photo is kept when absent', body: UpdateBlogSchema, responses: { 200: { description: 'Updated', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
  { method: 'patch', path: '/api/blogs/{id}', limit: RATE_LIMITS.comment, tag: 'Comments', auth: 'required', summary: "Comment on someone else's blog; the author is the caller (`pending`: it waits for a moderator, see the spam hold)", body: CommentSchema, responses: { 200: { description: 'Posted', schema: CommentPostedResponse }, ...denied, ...bad, ...missing } },
  { method: 'delete', path: '/api/blogs/{id}', tag: 'Blogs', auth: 'required', summary: 'Delete a blog (owner only) with its comments, likes and wishlist rows', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, ...bad, ...missing } },
  { method: 'patch', path: '/api/blogs/{id}/view', limit: RATE_LIMITS.view, tag: 'Blogs', auth: 'optional', summary: 'Count one view (the browser sends it once per blog; the server counts a visitor once per blog a day: a repeat answers modifiedCount 0; written within seconds, shown within 30 s)', responses: { 200: { description: 'Counted', schema: ModifiedResponse }, ...bad, ...missing, 429: { description: 'Too many views from this client', schema: MessageResponse } } },
  { method: 'patch', path: '/api/blogs/liked/{blogId}', tag: 'Likes', auth: 'required', summary: 'Like a blog: `modifiedCount` 1, or 0 when already liked', responses: { 200: { description: 'Liked', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
  { method: 'delete', path: '/api/blogs/liked/{blogId}', tag: 'Likes', auth: 'required', summary: 'Take a like back', responses: { 200: { description: 'Unliked', schema: ModifiedResponse }, ...denied, ...bad, ...missing } },
  { method: 'get', path: '/api/blogs/liked/{email}', tag: 'Likes', auth: 'required', summary: "The caller's own likes", query: PageQuerySchema, responses: { 200: { description: 'Likes', schema: LikedItemResponse, list: true, paged: true }, ...denied, ...bad } },
  { method: 'get', path: '/api/wishlist/{email}', tag: 'Wishlist', auth: 'required', summary: "The caller's own wishlist", query: WishlistPageSchema, responses: { 200: { description: 'Items', schema: WishlistItemResponse, list: true, paged: true }, ...denied, ...bad } },
  { method: 'post', path: '/api/wishlist', tag: 'Wishlist', auth: 'required', summary: 'Add a blog to the caller’s wishlist (either payload of spec §7)', body: AddWishlistSchema, responses: { 201: { description: 'Added', schema: InsertedResponse }, ...denied, ...bad, ...missing, 409: { description: 'Already in the wishlist', schema: MessageResponse } } },
  { method: 'delete', path: '/api/wishlist/{id}', tag: 'Wishlist', auth: 'required', summary: 'Remove one of the caller’s wishlist items', responses: { 200: { description: 'Removed', schema: DeletedResponse }, ...denied, 404: { description: 'No such item', schema: MessageResponse } } },
  { method: 'post', path: '/api/subscribers', limit: RATE_LIMITS.subscribe, tag: 'Newsletter', auth: 'none', summary: 'Subscribe an email to the newsletter', body: SubscribeSchema, responses: { 201: { description: 'Subscribed', schema: SubscribedResponse }, ...bad, 409: { description: 'Already subscribed', schema: MessageResponse } } },
  { method: 'post', path: '/api/images', limit: RATE_LIMITS.upload, tag: 'Images', auth: 'required', summary: 'Upload an image (multipart field `image`): verified, re-encoded to WebP at 400/800/1600 px', multipart: ImageBody, responses: { 201: { description: 'Stored', schema: ImageResponse }, ...denied, ...bad, 413: { description: 'Too large', schema: MessageResponse }, 415: { description: 'Not a JPEG, PNG, WebP or GIF', schema: MessageResponse } } },
  { method: 'put', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Edit one of the caller’s own comments (then shown as edited)', body: CommentSchema, responses: { 200: { description: 'Edited', schema: ModifiedResponse }, ...denied, ...bad, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'delete', path: '/api/comments/{id}', tag: 'Comments', auth: 'required', summary: 'Delete a comment: its author, or the owner of the blog it is on (one with replies stays as "[deleted]")', responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  // Threads (docs/decisions/060): kept together, one group to convert with the other declarations.
  { method: 'post', path: '/api/comments/{id}/replies', limit: RATE_LIMITS.comment, tag: 'Comments', auth: 'required', summary: 'Reply to a comment anyone can see (the blog’s writer too); the author is the caller (`pending`: it waits for a moderator)', body: CommentSchema, responses: { 200: { description: 'Posted', schema: CommentPostedResponse }, ...denied, ...bad, 404: { description: 'No such comment', schema: MessageResponse }, 409: { description: 'Hidden, removed or waiting: it takes no replies', schema: MessageResponse } } },
  { method: 'get', path: '/api/comments/{id}/thread', tag: 'Comments', auth: 'optional', summary: 'A comment and the replies under it (its "Continue this thread" page)', responses: { 200: { description: 'The thread', schema: ThreadResponse }, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'post', path: '/api/comments/{id}/like', tag: 'Comments', auth: 'required', summary: 'Like someone else’s comment: `modifiedCount` 1, or 0 when already liked', responses: { 200: { description: 'Liked', schema: CommentLikedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'delete', path: '/api/comments/{id}/like', tag: 'Comments', auth: 'required', summary: 'Take a like on a comment back', responses: { 200: { description: 'Unliked', schema: CommentLikedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'post', path: '/api/comments/{id}/pin', tag: 'Comments', auth: 'required', summary: 'The blog’s writer pins a top-level comment: it comes first (any other is unpinned)', responses: { 200: { description: 'Pinned (modifiedCount 0: already)', schema: ModifiedResponse }, ...denied, 400: { description: 'A reply cannot be pinned', schema: MessageResponse }, 404: { description: 'No such comment', schema: MessageResponse }, 409: { description: 'A hidden comment cannot be pinned', schema: MessageResponse } } },
  { method: 'delete', path: '/api/comments/{id}/pin', tag: 'Comments', auth: 'required', summary: 'The blog’s writer unpins a comment', responses: { 200: { description: 'Unpinned (modifiedCount 0: was not)', schema: ModifiedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'post', path: '/api/comments/{id}/hide', tag: 'Comments', auth: 'required', summary: 'The blog’s writer hides a comment on her post: gone for everyone but her and its author (replies under it too)', responses: { 200: { description: 'Hidden (modifiedCount 0: already)', schema: ModifiedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'delete', path: '/api/comments/{id}/hide', tag: 'Comments', auth: 'required', summary: 'The blog’s writer shows a hidden comment again', responses: { 200: { description: 'Shown (modifiedCount 0: was not hidden)', schema: ModifiedResponse }, ...denied, 404: { description: 'No such comment', schema: MessageResponse } } },
  { method: 'post', path: '/api/reports', limit: RATE_LIMITS.report, tag: 'Moderation', auth: 'required', summary: 'Report a blog, comment or author to the moderators (one open report per reporter and target; 20 an hour)', body: ReportSchema, responses: { 201: { description: 'Reported', schema: InsertedResponse }, ...denied, ...bad, 404: { description: 'Nothing to report there', schema: MessageResponse }, 409: { description: 'Already reported by the caller', schema: MessageResponse }, 429: { description: 'Too many reports', schema: MessageResponse } } },
  { method: 'get', path: '/api/moderation/reports', tag: 'Moderation', auth: 'required', summary: 'The moderation queue: open reports grouped by target, most recently reported first, with what was reported', responses: { 200: { description: 'The queue', schema: QueueItemResponse, list: true }, ...staffOnly } },
  { method: 'post', path: '/api/moderation/reports/{id}/dismiss', tag: 'Moderation', auth: 'required', summary: 'Dismiss one report', body: ModerationReasonSchema, responses: { 200: { description: 'Dismissed', schema: ModifiedResponse }, ...staffOnly, ...bad, 404: { description: 'No such open report', schema: MessageResponse } } },
  { method: 'post', path: '/api/moderation/{type}/{id}/hide', tag: 'Moderation', auth: 'required', summary: '`type` blogs or comments: hide it from everyone but its author, who sees the reason', body: ModerationReasonSchema, responses: { 200: { description: 'Hidden', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/{type}/{id}/restore', tag: 'Moderation', auth: 'required', summary: 'Show a hidden blog or comment again', body: ModerationReasonSchema, responses: { 200: { description: 'Restored', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/{type}/{id}/delete', tag: 'Moderation', auth: 'required', summary: 'Delete a blog (with its comments, likes, wishlist rows) or a comment for good', body: ModerationReasonSchema, responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/users/{id}/suspend', tag: 'Moderation', auth: 'required', summary: 'Suspend a user for `days` or for good: every session and bearer token ends now; they can read but not write', body: SuspendSchema, responses: { 200: { description: 'Suspended', schema: SuspendedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/users/{id}/unsuspend', tag: 'Moderation', auth: 'required', summary: 'Lift a suspension', body: ModerationReasonSchema, responses: { 200: { description: 'Lifted (modifiedCount 0: none)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/users/{id}/comment-ban', tag: 'Moderation', auth: 'required', summary: 'Ban a user from commenting (everything else stays allowed)', body: ModerationReasonSchema, responses: { 200: { description: 'Banned', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/users/{id}/comment-unban', tag: 'Moderation', auth: 'required', summary: 'Lift a comment ban', body: ModerationReasonSchema, responses: { 200: { description: 'Lifted (modifiedCount 0: none)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'get', path: '/api/moderation/pending', tag: 'Moderation', auth: 'required', summary: 'The spam hold: what waits for approval, and the accounts on hold', responses: { 200: { description: 'Waiting items and held accounts', schema: PendingResponse }, ...staffOnly } },
  { method: 'post', path: '/api/moderation/users/{id}/approve', tag: 'Moderation', auth: 'required', summary: '"Approve account": its spam hold ends now; its held blogs appear in the sitemap, feeds, featured and the newsletter, and what waited is shown', body: ModerationReasonSchema, responses: { 200: { description: 'Approved (modifiedCount 0: already)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'post', path: '/api/moderation/{type}/{id}/approve', tag: 'Moderation', auth: 'required', summary: '`type` blogs or comments: show a blog or comment that waited for approval', body: ModerationReasonSchema, responses: { 200: { description: 'Approved', schema: ModifiedResponse }, ...staffOnly, ...bad, 404: { description: 'Not waiting for approval', schema: MessageResponse } } },
  { method: 'get', path: '/api/moderation/moderators', tag: 'Moderation', auth: 'required', summary: 'Admins and moderators (admins only)', responses: { 200: { description: 'Staff', schema: StaffResponse, list: true }, ...staffOnly } },
  { method: 'post', path: '/api/moderation/moderators', tag: 'Moderation', auth: 'required', summary: 'Make a user a moderator by email (admins only)', body: GrantModeratorSchema, responses: { 200: { description: 'Granted (modifiedCount 0: already staff)', schema: GrantedResponse }, ...staffOnly, ...bad, 404: { description: 'No such user', schema: MessageResponse } } },
  { method: 'delete', path: '/api/moderation/moderators/{id}', tag: 'Moderation', auth: 'required', summary: 'Take the moderator role back (admins only)', body: ModerationReasonSchema, responses: { 200: { description: 'Revoked (modifiedCount 0: was not one)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
  { method: 'get', path: '/api/moderation/log', tag: 'Moderation', auth: 'required', summary: 'The audit log, newest first: who did what to what, when and why (admins only)', query: AuditPageSchema, responses: { 200: { description: 'Entries', schema: AuditEntryResponse, list: true, paged: true }, ...staffOnly, ...bad } },
  // Notifications (docs/decisions/062): the caller's own, always.
  { method: 'get', path: '/api/notifications', tag: 'Notifications', auth: 'required', standing: 'any', summary: "The caller's notifications, grouped (\"Jonas and 4 others liked …\"), newest activity first", query: ListNotificationsQuerySchema, responses: { 200: { description: 'Notifications', schema: NotificationSchema, list: true, paged: true }, 401: denied[401], ...bad } },
  { method: 'get', path: '/api/notifications/unread-count', tag: 'Notifications', auth: 'required', standing: 'any', summary: 'How many of the caller’s notifications are unread (may be a few seconds old)', responses: { 200: { description: 'The count', schema: UnreadCountResponse }, 401: denied[401] } },
  { method: 'post', path: '/api/notifications/read', tag: 'Notifications', auth: 'required', standing: 'any', summary: 'Mark the caller’s notifications read: those in `ids`, or all without it', body: MarkNotificationsReadSchema, responses: { 200: { description: 'Marked', schema: ModifiedResponse }, 401: denied[401], ...bad } },
];

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' });

/** The rate rules an operation is counted by: its own, or better-auth's endpoint table. */
export function limitsOf(op: Operation): readonly RateLimitRule[] {
  if (op.limit) return [op.limit];
  return op.path.startsWith('/api/auth/') ? (AUTH_ENDPOINT_LIMITS[op.path.slice('/api/auth'.length)] ?? []) : [];
}

const perWindow = (rule: RateLimitRule) => `${rule.limit} per ${rule.windowMs >= 3_600_000 ? `${rule.windowMs / 3_600_000} h` : `${rule.windowMs / 60_000} min`} per ${rule.key === 'email' ? 'account' : 'client'}`;

export function buildOpenApiDocument(options: { siteName: string; serverUrl?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const parameters: unknown[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (op.query) {
      const schema = jsonSchema(op.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: property });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const schema = r.schema ? jsonSchema(r.list ? z.array(r.schema) : r.schema, 'output') : undefined;
      responses[status] = {
        description: r.description,
        ...(schema ? { content: { 'application/json': { schema } } } : {}),
        ...(r.paged ? { headers: { 'X-Total-Count': { schema: { type: 'integer' } }, Link: { schema: { type: 'string' }, description: 'first, last, prev and next pages' } } } : {}),
      };
    }
    const limits = limitsOf(op);
    if (limits.length > 0) {
      responses['429'] ??= { description: 'Too many requests', content: { 'application/json': { schema: jsonSchema(MessageResponse, 'output') } } };
      (responses['429'] as { description: string }).description += ` (limits: ${limits.map(perWindow).join('; ')})`;
    }
    responses['500'] = { description: 'A server fault (logged; the body carries a request id)', content: { 'application/json': { schema: jsonSchema(MessageResponse, 'output') } } };
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      security: op.auth === 'required' ? [{ cookie: [] }, { bearer: [] }] : op.auth === 'optional' ? [{}, { cookie: [] }, { bearer: [] }] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } } } : {}),
      ...(op.multipart ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: { ...jsonSchema(op.multipart, 'input'), properties: { image: { type: 'string', format: 'binary' } } } } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${options.siteName} API`,
      version: '1.0.0',
      description:
        'The JSON API of the site. Every route accepts the session cookie (from the site) or `Authorization: Bearer <token>`. ' +
        'Cookie-authenticated changes must come from the site itself (Origin check). Errors answer `{ message }` with a 4xx status. ' +
        'Lists are JSON arrays paged with `?page=&limit=`; totals are in `X-Total-Count` and `Link`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        cookie: { type: 'apiKey', in: 'cookie', name: 'afterglow.session_token' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths,
  };
}
