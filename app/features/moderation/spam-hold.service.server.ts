import { emit } from '~/kernel/events.server';
import { holdEnd, type Suspension } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import { announceReleased, audit, blogPaths, getWriterStanding, moderatedContent, requireOutranks, requireRole } from './moderation.service.server';
import * as repo from './moderation.repo.server';
import type { ModeratedContent, ModerationReasonInput } from './moderation.schema';

/**
 * The spam hold for new accounts (docs/decisions/029-spam-hold.md). For SPAM_HOLD_DAYS
 * after sign-up, unless a moderator approved the account:
 * - its blogs carry `held_until`: noindex, nofollow links, and out of the sitemap, the feeds,
 *   featured and the newsletter;
 * - a blog or comment of it with more than SPAM_HOLD_MAX_LINKS links waits (`pending_since`),
 *   shown only to its author, until a moderator approves it.
 * A hold ends by a data change (an approval, or the release job once the days have passed), so
 * the page cache and every instance see the blog appear at once (decision 024).
 */

export interface WriterModeration {
  suspension: Suspension | null;
  /** When the writer's spam hold ends (null: not held). */
  heldUntil: string | null;
}

/** The moderation part of a writer's page: only for a moderator who may act on the writer (null otherwise). */
export async function getWriterModeration(ctx: ServiceContext, writerId: string): Promise<WriterModeration | null> {
  const standing = await getWriterStanding(ctx, writerId);
  if (!standing) return null;
  return { ...standing, heldUntil: await holdEnd(ctx, writerId) };
}

/**
 * "Approve account": the hold ends now, for everything the account wrote and will write; what
 * waited in the queue is shown, and its Public blogs are announced to subscribers and followers.
 */
export async function approveAccount(ctx: ServiceContext, userId: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const actor = await requireOutranks(ctx, 'moderator', userId);
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (db) => {
    const tx = { ...ctx, db };
    const approved = await repo.insertApproval(db, { user_id: userId, approved_by: actor.id, approved_at: now, reason: input.reason });
    const released = await repo.releaseAccount(db, userId);
    if (approved === 0 && released.length === 0) return { modifiedCount: 0 };
    await announceReleased(tx, released);
    await audit(tx, actor.id, 'approve_account', { type: 'user', id: userId }, input.reason);
    return { modifiedCount: 1 };
  });
}

/** A blog or comment that waited in the queue is shown. A blog still held is announced when its hold ends. */
export async function approveContent(ctx: ServiceContext, type: ModeratedContent, id: string, input: ModerationReasonInput): Promise<{ modifiedCount: number }> {
  const { actor, ownerId, blogId, blogOwnerId, parentId } = await moderatedContent(ctx, type, id);
  return ctx.db.transaction().execute(async (db) => {
    const tx = { ...ctx, db };
    if (type === 'blog') {
      const blog = await repo.clearPendingBlog(db, id);
      if (!blog) throw new AppError('not_found', MESSAGES.notPending);
      await announceReleased(tx, [blog]);
    } else if ((await repo.clearPendingComment(db, id)) === 0) {
      throw new AppError('not_found', MESSAGES.notPending);
    } else {
      // A comment that waited is said now, as it is shown (ownerId null: a reply from another server).
      await emit(tx, 'comment.posted', { commentId: id, blogId, blogOwnerId, authorId: ownerId, parentId });
    }
    await audit(tx, actor.id, 'approve', { type, id }, input.reason);
    return { modifiedCount: 1 };
  });
}

/** The release job: blogs whose hold ran out leave it (and are announced) as one change. */
export async function releaseExpiredHolds(ctx: ServiceContext): Promise<{ released: number }> {
  const now = ctx.now().toISOString();
  return ctx.db.transaction().execute(async (db) => {
    const released = await repo.releaseExpiredHolds(db, now);
    await announceReleased({ ...ctx, db }, released);
    return { released: released.length };
  });
}

/** What the queue shows of the hold: items waiting for approval, and accounts on hold. */
export const PENDING_SHOWN = 100;

export interface PendingJson {
  targetType: ModeratedContent;
  targetId: string;
  blogId: string;
  /** Its address as it reads now (docs/decisions/069). */
  blogPath: string;
  ownerId: string;
  ownerName: string;
  title: string | null;
  text: string;
  since: string;
}

export interface HeldAccountJson {
  userId: string;
  name: string;
  heldUntil: string;
  blogs: number;
}

/**
 * How many accounts have something on hold or waiting for a moderator. No role is checked: the
 * start of the server logs it for the operator, and the admins' instance page shows it.
 */
export async function countAccountsWaiting(ctx: Pick<ServiceContext, 'db'>): Promise<number> {
  return repo.countAccountsWaiting(ctx.db);
}

export async function listPendingAndHeld(ctx: ServiceContext): Promise<{ pending: PendingJson[]; held: HeldAccountJson[] }> {
  await requireRole(ctx, 'moderator');
  const [pending, held] = await Promise.all([repo.listPending(ctx.db, PENDING_SHOWN), repo.listHeldAccounts(ctx.db, PENDING_SHOWN)]);
  const paths = await blogPaths(ctx, pending.map((p) => p.blog_id));
  return {
    pending: pending.map((p) => ({
      targetType: p.type,
      targetId: p.id,
      blogId: p.blog_id,
      blogPath: paths.get(p.blog_id)!,
      ownerId: p.owner_id,
      ownerName: p.owner_name || MESSAGES.defaultDisplayName,
      title: p.type === 'blog' ? p.title : null,
      text: p.text,
      since: p.pending_since,
    })),
    held: held.map((h) => ({ userId: h.owner_id, name: h.name || MESSAGES.defaultDisplayName, heldUntil: String(h.held_until), blogs: Number(h.blogs) })),
  };
}

/**
 * An account an admin's site import made or mapped an author onto is approved by that admin: the
 * hold is for strangers, and these are the site's own writers coming home (docs/decisions/083).
 * In the caller's transaction; logged like any approval. Answers whether it was not approved yet.
 */
export async function approveImportedAccount(ctx: ServiceContext, userId: string, adminId: string): Promise<boolean> {
  const now = ctx.now().toISOString();
  const reason = 'Moved here with the site import';
  if ((await repo.insertApproval(ctx.db, { user_id: userId, approved_by: adminId, approved_at: now, reason })) === 0) return false;
  await announceReleased(ctx, await repo.releaseAccount(ctx.db, userId));
  await audit(ctx, adminId, 'approve_account', { type: 'user', id: userId }, reason);
  return true;
}
