import { type Context, Hono } from 'hono';
import {
  AuditPageSchema,
  ContentPathSchema,
  GrantModeratorSchema,
  MODERATED_CONTENT,
  ModerationReasonSchema,
  REPORT_RATE_LIMIT,
  ReportSchema,
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
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { rateLimit } from '../middleware/rate-limit.server';
import { parseInput, readJson, requireSignIn, setPageHeaders } from './http.server';

/** Issue 19's calls. Every rule (who may, one open report each, …) is the service's. */
export function moderationApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  const ctx = (c: Context<{ Variables: AppVariables }>) => serviceContext(deps, c.get('user'));

  api.post('/reports', rateLimit({ store: deps.rateLimits, log: deps.log, ...REPORT_RATE_LIMIT }), async (c) => {
    requireSignIn(c);
    return c.json(await reportContent(ctx(c), parseInput(ReportSchema, readJson(c))), 201);
  });

  api.get('/moderation/reports', async (c) => c.json(await listModerationQueue(ctx(c))));
  api.post('/moderation/reports/:id/dismiss', async (c) => {
    requireSignIn(c);
    return c.json(await dismissReport(ctx(c), c.req.param('id'), parseInput(ModerationReasonSchema, readJson(c))));
  });

  const contentAction = (action: typeof hideContent | typeof deleteContent) => async (c: Context<{ Variables: AppVariables }>) => {
    requireSignIn(c);
    const type = MODERATED_CONTENT[parseInput(ContentPathSchema, c.req.param('type'))];
    return c.json(await action(ctx(c), type, c.req.param('id') ?? '', parseInput(ModerationReasonSchema, readJson(c))));
  };
  api.post('/moderation/:type/:id/hide', contentAction(hideContent));
  api.post('/moderation/:type/:id/restore', contentAction(restoreContent));
  api.post('/moderation/:type/:id/delete', contentAction(deleteContent));

  api.post('/moderation/users/:id/suspend', async (c) => {
    requireSignIn(c);
    return c.json(await suspendUser(ctx(c), c.req.param('id'), parseInput(SuspendSchema, readJson(c))));
  });
  const userAction = (action: typeof unsuspendUser) => async (c: Context<{ Variables: AppVariables }>) => {
    requireSignIn(c);
    return c.json(await action(ctx(c), c.req.param('id') ?? '', parseInput(ModerationReasonSchema, readJson(c))));
  };
  api.post('/moderation/users/:id/unsuspend', userAction(unsuspendUser));
  api.post('/moderation/users/:id/comment-ban', userAction(banFromCommenting));
  api.post('/moderation/users/:id/comment-unban', userAction(liftCommentBan));

  api.get('/moderation/moderators', async (c) => c.json(await listStaff(ctx(c))));
  api.post('/moderation/moderators', async (c) => {
    requireSignIn(c);
    return c.json(await grantModerator(ctx(c), parseInput(GrantModeratorSchema, readJson(c))));
  });
  api.delete('/moderation/moderators/:id', userAction(revokeModerator));

  api.get('/moderation/log', async (c) => {
    const page = parseInput(AuditPageSchema, c.req.query());
    const { entries, total } = await listAuditLog(ctx(c), page);
    setPageHeaders(c, page, total);
    return c.json(entries);
  });

  return api;
}
