import type { MiddlewareHandler } from 'hono';
import {
  ContentPathSchema,
  type GrantModeratorInput,
  MODERATED_CONTENT,
  type ModerationReasonInput,
  type ReportInput,
  type SuspendInput,
} from '~/features/moderation/moderation.schema';
import {
  assertCanWrite,
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
import { type AppDeps, type AppEnv, serviceContext } from '../context.server';
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

/**
 * better-auth's own endpoints that change an account (under /api/auth). A suspended user can
 * read but not write (docs/decisions/028): these answer 403 with the suspension's message, like
 * every write of ours. Signing in and out, and ending sessions, stay open.
 */
export const ACCOUNT_WRITE_ENDPOINTS = [
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
] as const;

/** In front of better-auth (mounted at /api/auth/*): a suspended user's account writes end here. */
export function suspendedAccountGuard(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const guarded = new Set<string>(ACCOUNT_WRITE_ENDPOINTS);
  return async (c, next) => {
    const user = c.get('user');
    const endpoint = c.req.path.replace(/^.*?\/api\/auth/, '');
    if (user && guarded.has(endpoint)) await assertCanWrite(serviceContext(deps, user));
    return next();
  };
}

/** Issue 19's calls. Every rule (who may, one open report each, …) is the service's. */
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
