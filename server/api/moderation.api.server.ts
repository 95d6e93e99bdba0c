import {
  ContentPathSchema,
  type GrantModeratorInput,
  MODERATED_CONTENT,
  type ModerationReasonInput,
  type ReportInput,
  type SuspendInput,
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
import type { Handler, Handlers } from './endpoints.server';
import { parseInput, setPageHeaders } from './handlers.server';

const contentAction =
  (action: typeof hideContent | typeof deleteContent | typeof approveContent): Handler =>
  async ({ c, ctx, body }) => {
    const type = MODERATED_CONTENT[parseInput(ContentPathSchema, c.req.param('type'))];
    return c.json(await action(ctx, type, c.req.param('id') ?? '', body as ModerationReasonInput));
  };
const userAction =
  (action: typeof unsuspendUser): Handler =>
  async ({ c, ctx, body }) =>
    c.json(await action(ctx, c.req.param('id') ?? '', body as ModerationReasonInput));

/** Reporting and moderation calls (docs/decisions/028). Every rule (who may, one open report each, …) is the service's. */
export const MODERATION_HANDLERS: Handlers = {
  'post /api/reports': async ({ c, ctx, body }) => c.json(await reportContent(ctx, body as ReportInput), 201),
  'get /api/moderation/reports': async ({ c, ctx }) => c.json(await listModerationQueue(ctx)),
  'post /api/moderation/reports/{id}/dismiss': async ({ c, ctx, body }) => c.json(await dismissReport(ctx, c.req.param('id') ?? '', body as ModerationReasonInput)),
  'post /api/moderation/{type}/{id}/hide': contentAction(hideContent),
  'post /api/moderation/{type}/{id}/restore': contentAction(restoreContent),
  'post /api/moderation/{type}/{id}/delete': contentAction(deleteContent),
  // The spam hold (docs/decisions/029): what waits for approval, and approving it or an account.
  'post /api/moderation/{type}/{id}/approve': contentAction(approveContent),
  'get /api/moderation/pending': async ({ c, ctx }) => c.json(await listPendingAndHeld(ctx)),
  'post /api/moderation/users/{id}/approve': async ({ c, ctx, body }) => c.json(await approveAccount(ctx, c.req.param('id') ?? '', body as ModerationReasonInput)),
  'post /api/moderation/users/{id}/suspend': async ({ c, ctx, body }) => c.json(await suspendUser(ctx, c.req.param('id') ?? '', body as SuspendInput)),
  'post /api/moderation/users/{id}/unsuspend': userAction(unsuspendUser),
  'post /api/moderation/users/{id}/comment-ban': userAction(banFromCommenting),
  'post /api/moderation/users/{id}/comment-unban': userAction(liftCommentBan),
  'get /api/moderation/moderators': async ({ c, ctx }) => c.json(await listStaff(ctx)),
  'post /api/moderation/moderators': async ({ c, ctx, body }) => c.json(await grantModerator(ctx, body as GrantModeratorInput)),
  'delete /api/moderation/moderators/{id}': userAction(revokeModerator),
  'get /api/moderation/log': async ({ c, ctx, query }) => {
    const page = query as { page: number; limit: number };
    const { entries, total } = await listAuditLog(ctx, page);
    setPageHeaders(c, page, total);
    return c.json(entries);
  },
};
