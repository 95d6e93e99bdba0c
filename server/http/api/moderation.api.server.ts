import { z } from 'zod';
import {
  AuditPageSchema,
  ContentPathSchema,
  GrantModeratorSchema,
  MODERATED_CONTENT,
  ModerationReasonSchema,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  ReportSchema,
  ROLES,
  SuspendSchema,
} from '~/features/moderation/moderation.schema';
import {
  banFromCommenting,
  deleteContent,
  dismissReport,
  grantModerator,
  hideContent,
  liftCommentBan,
  listAuditLog,
  listModerationQueue,
  listStaff,
  reportContent,
  restoreContent,
  revokeModerator,
  suspendUser,
  unsuspendUser,
} from '~/features/moderation/moderation.service.server';
import { approveAccount, approveContent, listPendingAndHeld } from '~/features/moderation/spam-hold.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { setPageHeaders } from './handlers.server';
import { bad, denied, DeletedResponse, InsertedResponse, MessageResponse, ModifiedResponse } from './responses.server';

const text = z.string();
const QueueItemResponse = z.strictObject({
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: text,
  blogId: text.nullable(),
  blogPath: text.nullable().describe("That blog's page as it reads now, `/blogs/{blogId}/{slug}`"),
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
    z.strictObject({ targetType: z.enum(['blog', 'comment']), targetId: text, blogId: text, blogPath: text.describe("That blog's page as it reads now"), ownerId: text, ownerName: text, title: text.nullable(), text, since: text }),
  ).describe('Blogs and comments of held accounts with more than SPAM_HOLD_MAX_LINKS links, the longest waiting first'),
  held: z.array(z.strictObject({ userId: text, name: text, heldUntil: text, blogs: z.number().int() })).describe('Accounts on the spam hold with blogs held'),
});
const staffOnly = { 401: { description: 'Not signed in', schema: MessageResponse }, 403: { description: 'Not a moderator or admin, suspended, or acting on their own or on an equal or higher role’s account or content', schema: MessageResponse } };
const modNotFound = { 404: { description: 'No such target', schema: MessageResponse } };
const CONTENT = z.object({ type: ContentPathSchema });

/** Reports and the moderators' calls. Every rule (who may, one open report each, …) is the service's. */
export const MODERATION_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'post', path: '/api/reports', limit: RATE_LIMITS.report, tag: 'Moderation', auth: 'required', summary: 'Report a blog, comment or author to the moderators (one open report per reporter and target; 20 an hour)', body: ReportSchema, responses: { 201: { description: 'Reported', schema: InsertedResponse }, ...denied, ...bad, 404: { description: 'Nothing to report there', schema: MessageResponse }, 409: { description: 'Already reported by the caller', schema: MessageResponse }, 429: { description: 'Too many reports', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json(await reportContent(ctx, body), 201),
  ),
  defineOperation(
    { method: 'get', path: '/api/moderation/reports', tag: 'Moderation', auth: 'required', summary: 'The moderation queue: open reports grouped by target, most recently reported first, with what was reported', responses: { 200: { description: 'The queue', schema: QueueItemResponse, list: true }, ...staffOnly } },
    async ({ c, ctx }) => c.json(await listModerationQueue(ctx)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/reports/{id}/dismiss', tag: 'Moderation', auth: 'required', summary: 'Dismiss one report', body: ModerationReasonSchema, responses: { 200: { description: 'Dismissed', schema: ModifiedResponse }, ...staffOnly, ...bad, 404: { description: 'No such open report', schema: MessageResponse } } },
    async ({ c, ctx, body, params }) => c.json(await dismissReport(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/{type}/{id}/hide', params: CONTENT, tag: 'Moderation', auth: 'required', summary: '`type` blogs or comments: hide it from everyone but its author, who sees the reason', body: ModerationReasonSchema, responses: { 200: { description: 'Hidden', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await hideContent(ctx, MODERATED_CONTENT[params.type], params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/{type}/{id}/restore', params: CONTENT, tag: 'Moderation', auth: 'required', summary: 'Show a hidden blog or comment again', body: ModerationReasonSchema, responses: { 200: { description: 'Restored', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await restoreContent(ctx, MODERATED_CONTENT[params.type], params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/{type}/{id}/delete', params: CONTENT, tag: 'Moderation', auth: 'required', summary: 'Delete a blog (with its comments, likes, wishlist rows) or a comment for good', body: ModerationReasonSchema, responses: { 200: { description: 'Deleted', schema: DeletedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await deleteContent(ctx, MODERATED_CONTENT[params.type], params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/users/{id}/suspend', tag: 'Moderation', auth: 'required', summary: 'Suspend a user for `days` or for good: every session and bearer token ends now; they can read but not write', body: SuspendSchema, responses: { 200: { description: 'Suspended', schema: SuspendedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await suspendUser(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/users/{id}/unsuspend', tag: 'Moderation', auth: 'required', summary: 'Lift a suspension', body: ModerationReasonSchema, responses: { 200: { description: 'Lifted (modifiedCount 0: none)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await unsuspendUser(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/users/{id}/comment-ban', tag: 'Moderation', auth: 'required', summary: 'Ban a user from commenting (everything else stays allowed)', body: ModerationReasonSchema, responses: { 200: { description: 'Banned', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await banFromCommenting(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/users/{id}/comment-unban', tag: 'Moderation', auth: 'required', summary: 'Lift a comment ban', body: ModerationReasonSchema, responses: { 200: { description: 'Lifted (modifiedCount 0: none)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await liftCommentBan(ctx, params.id, body)),
  ),
  // The spam hold (docs/decisions/029): what waits for approval, and approving it or an account.
  defineOperation(
    { method: 'get', path: '/api/moderation/pending', tag: 'Moderation', auth: 'required', summary: 'The spam hold: what waits for approval, and the accounts on hold', responses: { 200: { description: 'Waiting items and held accounts', schema: PendingResponse }, ...staffOnly } },
    async ({ c, ctx }) => c.json(await listPendingAndHeld(ctx)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/users/{id}/approve', tag: 'Moderation', auth: 'required', summary: '"Approve account": its spam hold ends now; its held blogs appear in the sitemap, feeds, featured and the newsletter, and what waited is shown', body: ModerationReasonSchema, responses: { 200: { description: 'Approved (modifiedCount 0: already)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await approveAccount(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/{type}/{id}/approve', params: CONTENT, tag: 'Moderation', auth: 'required', summary: '`type` blogs or comments: show a blog or comment that waited for approval', body: ModerationReasonSchema, responses: { 200: { description: 'Approved', schema: ModifiedResponse }, ...staffOnly, ...bad, 404: { description: 'Not waiting for approval', schema: MessageResponse } } },
    async ({ c, ctx, body, params }) => c.json(await approveContent(ctx, MODERATED_CONTENT[params.type], params.id, body)),
  ),
  defineOperation(
    { method: 'get', path: '/api/moderation/moderators', tag: 'Moderation', auth: 'required', summary: 'Admins and moderators (admins only)', responses: { 200: { description: 'Staff', schema: StaffResponse, list: true }, ...staffOnly } },
    async ({ c, ctx }) => c.json(await listStaff(ctx)),
  ),
  defineOperation(
    { method: 'post', path: '/api/moderation/moderators', tag: 'Moderation', auth: 'required', summary: 'Make a user a moderator by email (admins only)', body: GrantModeratorSchema, responses: { 200: { description: 'Granted (modifiedCount 0: already staff)', schema: GrantedResponse }, ...staffOnly, ...bad, 404: { description: 'No such user', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json(await grantModerator(ctx, body)),
  ),
  defineOperation(
    { method: 'delete', path: '/api/moderation/moderators/{id}', tag: 'Moderation', auth: 'required', summary: 'Take the moderator role back (admins only)', body: ModerationReasonSchema, responses: { 200: { description: 'Revoked (modifiedCount 0: was not one)', schema: ModifiedResponse }, ...staffOnly, ...bad, ...modNotFound } },
    async ({ c, ctx, body, params }) => c.json(await revokeModerator(ctx, params.id, body)),
  ),
  defineOperation(
    { method: 'get', path: '/api/moderation/log', tag: 'Moderation', auth: 'required', summary: 'The audit log, newest first: who did what to what, when and why (admins only)', query: AuditPageSchema, responses: { 200: { description: 'Entries', schema: AuditEntryResponse, list: true, paged: true }, ...staffOnly, ...bad } },
    async ({ c, ctx, query }) => {
      const { entries, total } = await listAuditLog(ctx, query);
      setPageHeaders(c, query, total);
      return c.json(entries);
    },
  ),
];
