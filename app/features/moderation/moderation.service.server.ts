import type { ReportTargetType, Role } from '~/db/schema';
import { blogPathOf } from '~/features/blogs/blog-path';
import { keptFor } from '~/lib/render/caches.server';
import { emit } from '~/kernel/events.server';
import { assertCanWrite, type Suspension, suspensionOf } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { userOrThrow401, type ServiceContext, type SessionUser } from '~/lib/core/service-context';
import * as repo from './moderation.repo.server';
import { REPORT_DETAILS_MAX, type REPORT_REASONS } from './moderation.constants';
import type { GrantModeratorInput, ModeratedContent, ModerationReasonInput, ReportInput, SuspendInput } from './moderation.schema';

/**
 * Moderation (docs/decisions/028-moderation.md). Every permission is checked here, so
 * the pages and the API cannot drift; every action leaves a row in the audit log.
 */

/** The queue shows at most this many open reports (grouped by target). */
export const QUEUE_REPORTS_SHOWN = 500;

const RANK: Record<Role | 'writer', number> = { writer: 0, moderator: 1, admin: 2 };

export async function getRole(ctx: ServiceContext, userId: string): Promise<Role | 'writer'> {
  return (await repo.findRole(ctx.db, userId)) ?? 'writer';
}

/** The caller, when their role is at least `least`; 401 when signed out, 403 otherwise. */
export async function requireRole(ctx: ServiceContext, least: Role): Promise<SessionUser & { role: Role }> {
  const user = userOrThrow401(ctx);
  const role = await getRole(ctx, user.id);
  if (RANK[role] < RANK[least]) throw new AppError('forbidden', least === 'admin' ? MESSAGES.adminsOnly : MESSAGES.moderatorsOnly);
  return { ...user, role: role as Role };
}

/**
 * Writes the moderation log's row and says so as an event, in the action's transaction. `ownerId`:
 * whose content the action is about (a user action is about the user).
 */
export async function audit(ctx: Pick<ServiceContext, 'db' | 'now'>, actorId: string | null, action: string, target: { type: string; id: string }, reason: string, ownerId?: string | null) {
  await repo.insertLog(ctx.db, { id: newId(), actor_id: actorId, action, target_type: target.type, target_id: target.id, reason, created_at: ctx.now().toISOString() });
  await emit(ctx, 'moderation.decided', { actorId, action, targetType: target.type, targetId: target.id, ownerId: ownerId ?? (target.type === 'user' ? target.id : null), reason });
}

// --- Roles -------------------------------------------------------------------------------

type ReleasedBlog = Awaited<ReturnType<typeof repo.releaseExpiredHolds>>[number];

/** A released blog that is Public, shown and no longer waiting is published now (mail subscribes to the event). */
export async function announceReleased(ctx: ServiceContext, blogs: ReleasedBlog[]) {
  for (const blog of blogs) {
    if (blog.availability === 'Public' && !blog.removed_at && !blog.held_until && !blog.pending_since) await emit(ctx, 'blog.published', { blogId: blog.id, ownerId: blog.owner_id });
  }
}

/**
 * Staff are trusted (docs/decisions/061): a new admin or moderator leaves the spam hold for good,
 * as if a moderator had approved the account, and what waited is shown and announced. Call inside
 * the grant's transaction.
 */
async function trustAccount(tx: ServiceContext, userId: string, approvedBy: string | null, reason: string) {
  const now = tx.now().toISOString();
  await repo.insertApproval(tx.db, { user_id: userId, approved_by: approvedBy, approved_at: now, reason });
  await announceReleased(tx, await repo.releaseAccount(tx.db, userId));
}

/**
 * The operator's command line (`npm run admin -- grant|revoke EMAIL`): no signed-in actor, so
 * the audit row's actor is null. Only the operator names admins.
 */
export async function setAdminByOperator(ctx: ServiceContext, email: string, grant: boolean): Promise<{ userId: string; changed: boolean }> {
  const userId = await repo.findUserIdByEmail(ctx.db, email);
  if (!userId) throw new AppError('not_found', MESSAGES.userNotFound);
  return ctx.db.transaction().execute(async (db) => {
    const tx = { ...ctx, db };
    const current = await repo.findRole(db, userId);
    if (grant) {
      // Granting again still approves: an admin named before staff were trusted may be held.
      await trustAccount(tx, userId, null, 'operator command line');
      if (current === 'admin') return { userId, changed: false };
      await repo.upsertRole(db, { user_id: userId, role: 'admin', granted_by: null, granted_at: ctx.now().toISOString() });
    } else if ((await repo.deleteRole(db, userId, 'admin')) === 0) {
      return { userId, changed: false };
    }
    await audit(tx, null, grant ? 'grant_admin' : 'revoke_admin', { type: 'user', id: userId }, 'operator command line');
    return { userId, changed: true };
  });
}

/** Admins make a writer a moderator (an admin stays an admin). */
export async function grantModerator(ctx: ServiceContext, input: GrantModeratorInput): Promise<{ userId: string; modifiedCount: number }> {
  const admin = await requireRole(ctx, 'admin');
  const userId = await repo.findUserIdByEmail(ctx.db, input.email);
  if (!userId) throw new AppError('not_found', MESSAGES.userNotFound);
  if ((await getRole(ctx, userId)) !== 'writer') return { userId, modifiedCount: 0 };
  await ctx.db.transaction().execute(async (db) => {
    await repo.upsertRole(db, { user_id: userId, role: 'moderator', granted_by: admin.id, granted_at: ctx.now().toISOString() });
    await trustAccount({ ...ctx, db }, userId, admin.id, input.reason);
    await audit({ ...ctx, db }, admin.id, 'grant_moderator', { type: 'user', id: userId }, input.reason);
  });
  return { userId, modifiedCount: 1 };
}

export async function revokeModerator(ctx: ServiceContext, userId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const admin = await requireRole(ctx, 'admin');
  return ctx.db.transaction().execute(async (db) => {
    const modifiedCount = await repo.deleteRole(db, userId, 'moderator');
    if (modifiedCount > 0) await audit({ ...ctx, db }, admin.id, 'revoke_moderator', { type: 'user', id: userId }, input.reason);
    return { modifiedCount };
  });
}

export interface StaffJson {
  userId: string;
  name: string;
  email: string;
  role: Role;
  since: string;
}

/** Admins see who the staff are, emails included: they grant and revoke by email. */
export async function listStaff(ctx: ServiceContext): Promise<StaffJson[]> {
  await requireRole(ctx, 'admin');
  const rows = await repo.listStaff(ctx.db);
  return rows.map((r) => ({ userId: r.user_id, name: r.name || MESSAGES.defaultDisplayName, email: r.email, role: r.role, since: r.granted_at }));
}

export interface AuditEntryJson {
  id: string;
  actorId: string | null;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  reason: string;
  at: string;
}

export async function listAuditLog(ctx: ServiceContext, page: { page: number; limit: number }): Promise<{ entries: AuditEntryJson[]; total: number }> {
  await requireRole(ctx, 'admin');
  const [rows, total] = await Promise.all([repo.listLog(ctx.db, { limit: page.limit, offset: (page.page - 1) * page.limit }), repo.countLog(ctx.db)]);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      actorId: r.actor_id,
      actorName: r.actor_id ? r.actor_name || MESSAGES.defaultDisplayName : 'operator',
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      reason: r.reason,
      at: r.created_at,
    })),
    total,
  };
}

// --- Restrictions: suspension and comment ban ----------------------------------------------

/**
/**
 * What a writer's page offers a moderator who may act on the writer (the rank rule of
 * assertCanModerate, docs/decisions/028): the writer's suspension in force, if any; null for
 * everyone else, who sees no moderation there.
 */
export async function getWriterStanding(ctx: ServiceContext, writerId: string): Promise<{ suspension: Suspension | null } | null> {
  if (!ctx.user || ctx.user.id === writerId) return null;
  const [viewerRole, writerRole] = await Promise.all([getRole(ctx, ctx.user.id), getRole(ctx, writerId)]);
  if (RANK[viewerRole] < RANK.moderator || RANK[writerRole] >= RANK[viewerRole]) return null;
  return { suspension: await suspensionOf(ctx, writerId) };
}

/**
 * The one rule of every moderation action (docs/decisions/028), for an actor whose role
 * `requireRole` already read (so a non-moderator is refused before anything is looked up): the
 * actor is in good standing and outranks whoever the action is about — the owner of a blog, comment or
 * report's target, or the user themselves. A moderator acts on writers, an admin also on
 * moderators; nobody acts on an admin or on themselves.
 */
export async function assertCanModerate(ctx: ServiceContext, actor: SessionUser & { role: Role }, ownerId: string | null): Promise<SessionUser & { role: Role }> {
  await assertCanWrite(ctx);
  // null: a remote author (a comment from another server), who holds no role here.
  if (ownerId !== null && (ownerId === actor.id || RANK[await getRole(ctx, ownerId)] >= RANK[actor.role])) throw new AppError('forbidden', MESSAGES.cannotModerateStaff);
  return actor;
}

/** assertCanModerate on a user who must exist (404 for one who does not, after the role check). */
export async function requireOutranks(ctx: ServiceContext, least: Role, targetId: string) {
  const actor = await requireRole(ctx, least);
  if (!(await repo.findUserSummary(ctx.db, targetId))) throw new AppError('not_found', MESSAGES.userNotFound);
  return assertCanModerate(ctx, actor, targetId);
}

/** For a period (`days`) or for good; every session and bearer token of the user ends now. */
export async function suspendUser(ctx: ServiceContext, userId: string, input: SuspendInput): Promise<{ until: string | null; sessionsEnded: number }> {
  const actor = await requireOutranks(ctx, 'moderator', userId);
  const now = ctx.now();
  const until = input.days ? new Date(now.getTime() + input.days * 86_400_000).toISOString() : null;
  const sessionsEnded = await ctx.db.transaction().execute(async (db) => {
    await repo.upsertRestriction(db, { user_id: userId, kind: 'suspended', until, reason: input.reason, created_by: actor.id, created_at: now.toISOString() });
    await repo.closeReports(db, { type: 'user', id: userId }, 'resolved', actor.id, now.toISOString());
    await audit({ ...ctx, db }, actor.id, until ? `suspend_until ${until}` : 'suspend', { type: 'user', id: userId }, input.reason);
    await emit({ ...ctx, db }, 'account.suspended', { userId, until, reason: input.reason });
    // Deleting the sessions bumps the `sessions` version (a trigger), so every instance's
    // session cache drops them on its next request (docs/decisions/019).
    return repo.deleteSessions(db, userId);
  });
  return { until, sessionsEnded };
}

export async function unsuspendUser(ctx: ServiceContext, userId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  return lift(ctx, userId, 'suspended', input);
}

export async function banFromCommenting(ctx: ServiceContext, userId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const actor = await requireOutranks(ctx, 'moderator', userId);
  const now = ctx.now().toISOString();
  await ctx.db.transaction().execute(async (db) => {
    await repo.upsertRestriction(db, { user_id: userId, kind: 'comment_ban', until: null, reason: input.reason, created_by: actor.id, created_at: now });
    await audit({ ...ctx, db }, actor.id, 'comment_ban', { type: 'user', id: userId }, input.reason);
  });
  return { modifiedCount: 1 };
}

export async function liftCommentBan(ctx: ServiceContext, userId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  return lift(ctx, userId, 'comment_ban', input);
}

async function lift(ctx: ServiceContext, userId: string, kind: 'suspended' | 'comment_ban', input: ModerationReasonInput) {
  const actor = await requireOutranks(ctx, 'moderator', userId);
  return ctx.db.transaction().execute(async (db) => {
    const modifiedCount = await repo.deleteRestriction(db, userId, kind);
    if (modifiedCount > 0) await audit({ ...ctx, db }, actor.id, kind === 'suspended' ? 'unsuspend' : 'lift_comment_ban', { type: 'user', id: userId }, input.reason);
    return { modifiedCount };
  });
}

// --- Reports -------------------------------------------------------------------------------

interface Snapshot {
  /** The blog a comment is on, for the queue's link. */
  blogId?: string;
  ownerId: string;
  title?: string;
  text: string;
}

async function snapshotOf(ctx: ServiceContext, type: ReportTargetType, id: string): Promise<Snapshot | null> {
  if (type === 'blog') {
    const blog = await repo.findBlogForModeration(ctx.db, id);
    // A Hidden blog (a private draft) does not exist for anyone but its owner.
    if (!blog || (blog.availability === 'Hidden' && blog.owner_id !== ctx.user?.id) || blog.removed_at) return null;
    return { blogId: blog.id, ownerId: blog.owner_id, title: blog.title, text: `${blog.short_description}\n\n${blog.long_description}` };
  }
  if (type === 'comment') {
    const comment = await repo.findCommentForModeration(ctx.db, id);
    // A remote author's comment is reported through federation's own flow (docs/decisions/060).
    if (!comment || comment.removed_at || comment.deleted_at || comment.user_id === null) return null;
    const blog = await repo.findBlogForModeration(ctx.db, comment.blog_id);
    if (!blog || (blog.availability === 'Hidden' && blog.owner_id !== ctx.user?.id) || blog.removed_at) return null;
    return { blogId: comment.blog_id, ownerId: comment.user_id, text: comment.comment_text };
  }
  const user = await repo.findUserSummary(ctx.db, id);
  if (!user) return null;
  return { ownerId: user.id, title: user.name || MESSAGES.defaultDisplayName, text: '' };
}

/** One open report per reporter and target: a second answers 409 (the index decides). */
export async function reportContent(ctx: ServiceContext, input: ReportInput): Promise<{ insertedId: string }> {
  const user = await assertCanWrite(ctx);
  await ctx.limit(RATE_LIMITS.report);
  const snapshot = await snapshotOf(ctx, input.targetType, input.targetId);
  if (!snapshot) throw new AppError('not_found', MESSAGES.reportTargetMissing);
  if (snapshot.ownerId === user.id) throw new AppError('forbidden', MESSAGES.reportOwnContent);
  const id = newId();
  const inserted = await repo.insertReport(ctx.db, {
    id,
    reporter_id: user.id,
    remote_actor_uri: null,
    target_type: input.targetType,
    target_id: input.targetId,
    reason: input.reason,
    details: input.details || null,
    snapshot: JSON.stringify(snapshot),
    created_at: ctx.now().toISOString(),
  });
  if (inserted === 0) throw new AppError('conflict', MESSAGES.reportAlreadyOpen);
  return { insertedId: id };
}

/**
 * A report from another server (an ActivityPub `Flag`, docs/decisions/080): its reporter is the
 * remote actor that sent it, not a user here. Only what every reader may see can be reported this
 * way; one open report per remote actor and target. Answers the report's id, or null when there is
 * nothing to report or it is open already.
 */
export async function reportFromElsewhere(ctx: ServiceContext, input: { actorUri: string; targetType: ReportTargetType; targetId: string; text: string }): Promise<string | null> {
  const snapshot = await snapshotOf({ ...ctx, user: null }, input.targetType, input.targetId);
  if (!snapshot) return null;
  const id = newId();
  const inserted = await repo.insertRemoteReport(ctx.db, {
    id,
    reporter_id: null,
    remote_actor_uri: input.actorUri,
    target_type: input.targetType,
    target_id: input.targetId,
    reason: REMOTE_REPORT_REASON,
    details: input.text.slice(0, REPORT_DETAILS_MAX) || null,
    snapshot: JSON.stringify(snapshot),
    created_at: ctx.now().toISOString(),
  });
  return inserted > 0 ? id : null;
}

/** A Flag names no reason from our list: its own words are the report's details. */
const REMOTE_REPORT_REASON: (typeof REPORT_REASONS)[number] = 'Something else';

export interface QueueReportJson {
  id: string;
  reporterName: string;
  reason: string;
  details: string | null;
  at: string;
}

export interface QueueItemJson {
  targetType: ReportTargetType;
  targetId: string;
  /** The blog to open (the blog itself, or the one a comment is on). */
  blogId: string | null;
  /** Its address as it reads now (docs/decisions/069). */
  blogPath: string | null;
  ownerId: string;
  /** What the target showed when first reported among the open reports. */
  title: string | null;
  text: string;
  latestAt: string;
  reports: QueueReportJson[];
}

/** Open reports grouped by target, the target most recently reported first. */
export async function listModerationQueue(ctx: ServiceContext): Promise<QueueItemJson[]> {
  await requireRole(ctx, 'moderator');
  const rows = await repo.listOpenReports(ctx.db, QUEUE_REPORTS_SHOWN);
  const groups = new Map<string, QueueItemJson>();
  for (const row of rows) {
    const key = `${row.target_type}:${row.target_id}`;
    let group = groups.get(key);
    const snapshot = JSON.parse(row.snapshot) as Snapshot;
    if (!group) {
      group = {
        targetType: row.target_type,
        targetId: row.target_id,
        blogId: snapshot.blogId ?? null,
        blogPath: null,
        ownerId: snapshot.ownerId,
        title: snapshot.title ?? null,
        text: snapshot.text,
        latestAt: row.created_at,
        reports: [],
      };
      groups.set(key, group);
    }
    // Newest first: the last one seen is the oldest, whose snapshot is the one first reported.
    group.title = snapshot.title ?? null;
    group.text = snapshot.text;
    const reporterName = row.remote_actor_uri ? MESSAGES.reportedFrom(new URL(row.remote_actor_uri).host) : row.reporter_name || MESSAGES.defaultDisplayName;
    group.reports.push({ id: row.id, reporterName, reason: row.reason, details: row.details, at: row.created_at });
  }
  const items = [...groups.values()];
  const paths = await blogPaths(ctx, items.map((item) => item.blogId));
  return items.map((item) => ({ ...item, blogPath: item.blogId ? (paths.get(item.blogId) ?? null) : null }));
}

/**
 * Each named blog's address as it reads now, made by the one helper every link to a post uses
 * (docs/decisions/069): a snapshot keeps the id, the title may have changed since. A blog gone
 * since keeps its bare address (its page answers 404).
 */
export async function blogPaths(ctx: ServiceContext, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const found = new Map((await repo.findBlogSlugs(ctx.db, wanted)).map((row) => [row.id, blogPathOf(row)]));
  return new Map(wanted.map((id) => [id, found.get(id) ?? blogPathOf({ id })]));
}

export async function dismissReport(ctx: ServiceContext, reportId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const moderator = await requireRole(ctx, 'moderator');
  const report = await repo.findOpenReport(ctx.db, reportId);
  if (!report) throw new AppError('not_found', MESSAGES.reportNotFound);
  const actor = await assertCanModerate(ctx, moderator, (JSON.parse(report.snapshot) as Snapshot).ownerId);
  return ctx.db.transaction().execute(async (db) => {
    const modifiedCount = await repo.closeReports(db, { type: report.target_type, id: report.target_id }, 'dismissed', actor.id, ctx.now().toISOString(), reportId);
    await audit({ ...ctx, db }, actor.id, 'dismiss_report', { type: 'report', id: reportId }, input.reason);
    return { modifiedCount };
  });
}

// --- Hide, restore, delete -----------------------------------------------------------------

const TABLE: Record<ModeratedContent, 'blogs' | 'comments'> = { blog: 'blogs', comment: 'comments' };

/**
 * The blog or comment a moderation action is about, with its owner, once the actor may act on it
 * (assertCanModerate). Moderation acts only on what others can see or saw: a Hidden blog is a
 * private draft, and it and its comments do not exist for a moderator (404, as for anyone else).
 */
export async function moderatedContent(ctx: ServiceContext, type: ModeratedContent, id: string) {
  const moderator = await requireRole(ctx, 'moderator');
  const comment = type === 'comment' ? await repo.findCommentForModeration(ctx.db, id) : undefined;
  const blog = await repo.findBlogForModeration(ctx.db, comment ? comment.blog_id : id);
  if ((type === 'comment' && !comment) || !blog || blog.availability === 'Hidden') throw new AppError('not_found', MESSAGES.contentNotFound);
  const ownerId = comment ? comment.user_id : blog.owner_id;
  const actor = await assertCanModerate(ctx, moderator, ownerId);
  return { actor, ownerId, blogId: blog.id, blogOwnerId: blog.owner_id, parentId: comment?.parent_id ?? null };
}

/** A local author's comment a moderator took away: federation takes it back where it went (docs/decisions/068). */
async function commentWithdrawn(ctx: ServiceContext, type: ModeratedContent, id: string, at: { blogId: string; ownerId: string | null; parentId: string | null }) {
  if (type === 'comment' && at.ownerId) await emit(ctx, 'comment.withdrawn', { commentId: id, blogId: at.blogId, authorId: at.ownerId, parentId: at.parentId, how: 'removed' });
}

/**
 * Hidden from everyone but its author, who sees "Removed by a moderator" and the reason. Open
 * reports on it are resolved. Cached pages go stale: the row's change bumps `content`.
 */
export async function hideContent(ctx: ServiceContext, type: ModeratedContent, id: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const { actor, ownerId, blogId, blogOwnerId, parentId } = await moderatedContent(ctx, type, id);
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (db) => {
    const modifiedCount = await repo.setRemoved(db, TABLE[type], id, { removed_at: now, removed_reason: input.reason });
    await repo.closeReports(db, { type, id }, 'resolved', actor.id, now);
    await audit({ ...ctx, db }, actor.id, 'hide', { type, id }, input.reason, ownerId);
    if (type === 'blog' && modifiedCount > 0) await emit({ ...ctx, db }, 'blog.withdrawn', { blogId: id, ownerId: blogOwnerId, how: 'removed' });
    if (modifiedCount > 0) await commentWithdrawn({ ...ctx, db }, type, id, { blogId, ownerId, parentId });
    return { modifiedCount };
  });
}

export async function restoreContent(ctx: ServiceContext, type: ModeratedContent, id: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const { actor, ownerId } = await moderatedContent(ctx, type, id);
  return ctx.db.transaction().execute(async (db) => {
    const modifiedCount = await repo.setRemoved(db, TABLE[type], id, { removed_at: null, removed_reason: null });
    await audit({ ...ctx, db }, actor.id, 'restore', { type, id }, input.reason, ownerId);
    // A local author's comment shown again goes out again, where its removal had taken it back.
    if (type === 'comment' && ownerId && modifiedCount > 0) await emit({ ...ctx, db }, 'comment.shown', { commentId: id, authorId: ownerId });
    return { modifiedCount };
  });
}

/** For good: a blog goes with its comments, likes and wishlist rows (ON DELETE CASCADE). */
export async function deleteContent(ctx: ServiceContext, type: ModeratedContent, id: string, input: ModerationReasonInput): Promise<{ deletedCount: number }> {
  const { actor, blogId, ownerId, blogOwnerId, parentId } = await moderatedContent(ctx, type, id);
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (db) => {
    const deletedCount = type === 'comment' ? await repo.deleteCommentRow(db, id, blogId, now) : await repo.deleteBlogRow(db, id);
    await repo.closeReports(db, { type, id }, 'resolved', actor.id, now);
    await audit({ ...ctx, db }, actor.id, 'delete', { type, id }, input.reason, ownerId);
    if (type === 'blog' && deletedCount > 0) await emit({ ...ctx, db }, 'blog.withdrawn', { blogId: id, ownerId: blogOwnerId, how: 'deleted' });
    if (deletedCount > 0) await commentWithdrawn({ ...ctx, db }, type, id, { blogId, ownerId, parentId });
    return { deletedCount };
  });
}

/** The removed blogs and comments the screen lists, so a moderator can restore them. */
export const REMOVED_SHOWN = 50;

export interface RemovedJson {
  targetType: ModeratedContent;
  targetId: string;
  blogId: string;
  /** Its address as it reads now (docs/decisions/069). */
  blogPath: string;
  text: string;
  reason: string;
  at: string;
}

/** An audit entry as the page reads it (decision 061): what its target is called now, and where it is. */
export interface ReadableAuditEntry extends AuditEntryJson {
  /** The person's name, the blog's title, or the title of the blog a comment is on; null: deleted since. */
  targetName: string | null;
  targetPath: string | null;
  /** The end of a suspension with one. */
  until: string | null;
}

async function readable(ctx: ServiceContext, entries: AuditEntryJson[]): Promise<ReadableAuditEntry[]> {
  const idsOf = (type: string) => [...new Set(entries.filter((e) => e.targetType === type).map((e) => e.targetId))];
  const found = await repo.findLogTargets(ctx.db, { user: idsOf('user'), blog: idsOf('blog'), comment: idsOf('comment') });
  const users = new Map(found.users.map((u) => [u.id, u.name || MESSAGES.defaultDisplayName]));
  const blogs = new Map(found.blogs.map((b) => [b.id, b]));
  const comments = new Map(found.comments.map((c) => [c.id, c]));
  return entries.map((entry) => {
    const until = entry.action.startsWith('suspend_until ') ? entry.action.slice('suspend_until '.length) : null;
    const id = entry.targetId;
    if (entry.targetType === 'user') return { ...entry, until, targetName: users.get(id) ?? null, targetPath: users.has(id) ? `/authors/${id}` : null };
    if (entry.targetType === 'blog') {
      const blog = blogs.get(id);
      return { ...entry, until, targetName: blog?.name ?? null, targetPath: blog ? blogPathOf(blog) : null };
    }
    if (entry.targetType === 'remote_account' || entry.targetType === 'instance') return { ...entry, until, targetName: id, targetPath: '/moderation/fediverse' };
    const comment = entry.targetType === 'comment' ? comments.get(id) : undefined;
    return { ...entry, until, targetName: comment?.name ?? null, targetPath: comment ? `${blogPathOf({ id: comment.blog_id, slug: comment.blog_slug })}#comments` : null };
  });
}

export interface ModerationOverview {
  role: Role;
  queue: QueueItemJson[];
  removed: RemovedJson[];
  /** Admins only. */
  staff: StaffJson[] | null;
  log: ReadableAuditEntry[] | null;
}

/** The /moderation screen: the queue for moderators; the staff and the audit log for admins too. */
export async function getModerationOverview(ctx: ServiceContext): Promise<ModerationOverview> {
  const { role } = await requireRole(ctx, 'moderator');
  const [queue, removedRows] = await Promise.all([listModerationQueue(ctx), repo.listRemoved(ctx.db, REMOVED_SHOWN)]);
  const paths = await blogPaths(ctx, removedRows.map((r) => r.blog_id));
  const removed = removedRows.map((r) => ({ targetType: r.type, targetId: r.id, blogId: r.blog_id, blogPath: paths.get(r.blog_id)!, text: r.text, reason: r.removed_reason ?? '', at: r.removed_at }));
  if (role !== 'admin') return { role, queue, removed, staff: null, log: null };
  const [staff, { entries }] = await Promise.all([listStaff(ctx), listAuditLog(ctx, { page: 1, limit: 50 })]);
  return { role, queue, removed, staff, log: await readable(ctx, entries) };
}

/** Whether the signed-in viewer may open /moderation (the user menu's link); false when signed out. */
export async function canModerate(ctx: ServiceContext): Promise<boolean> {
  if (!ctx.user) return false;
  // Trusted up to 30 s (the `menu_roles` cache): the link is only a way in, every action checks the role.
  return keptFor('menu_roles', ctx.db, ctx.user.id, Date.now(), async () => RANK[await getRole(ctx, ctx.user!.id)] >= RANK.moderator);
}
