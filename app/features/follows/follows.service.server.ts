import type { MailDelivery } from '~/db/schema';
import { assertCanWrite } from '~/kernel/standing.server';
import { emit } from '~/kernel/events.server';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import * as repo from './follows.repo.server';
import { FOLLOWING_SHOWN } from './follows.schema';

const nameOf = (row: { profile_name: string | null; account_name: string }) => row.profile_name || row.account_name || MESSAGES.defaultDisplayName;

/** A signed-in reader follows a writer: their new posts come by mail (per post unless changed). */
export async function followWriter(ctx: ServiceContext, writerId: string): Promise<{ following: true }> {
  const user = await assertCanWrite(ctx);
  if (writerId === user.id) throw new AppError('bad_request', MESSAGES.followSelf);
  if (!(await repo.findWriter(ctx.db, writerId))) throw new AppError('not_found', MESSAGES.writerNotFound);
  await ctx.db.transaction().execute(async (db) => {
    if (await repo.insertFollow(db, { follower_id: user.id, writer_id: writerId, created_at: ctx.now().toISOString() })) await emit({ ...ctx, db }, 'follow.started', { followerId: user.id, writerId });
  });
  return { following: true };
}

/** Ends the reader's follow of one writer, or of every writer; says so for each one that ended. */
async function endFollows(ctx: ServiceContext, followerId: string, writerId?: string): Promise<void> {
  await ctx.db.transaction().execute(async (db) => {
    for (const ended of await repo.deleteFollows(db, followerId, writerId)) await emit({ ...ctx, db }, 'follow.ended', { followerId, writerId: ended });
  });
}

export async function unfollowWriter(ctx: ServiceContext, writerId: string): Promise<{ following: false }> {
  const user = await assertCanWrite(ctx);
  await endFollows(ctx, user.id, writerId);
  return { following: false };
}

export async function setFollowDelivery(ctx: ServiceContext, writerId: string, delivery: MailDelivery): Promise<void> {
  const user = await assertCanWrite(ctx);
  if ((await repo.setFollowDelivery(ctx.db, user.id, writerId, delivery)) === 0) throw new AppError('not_found', MESSAGES.writerNotFound);
}

export interface FollowedWriter {
  writerId: string;
  name: string;
  photo: string | null;
  delivery: MailDelivery;
  since: string;
}

/** The signed-in reader's Following list, newest first. */
export async function listFollowing(ctx: ServiceContext): Promise<FollowedWriter[]> {
  const user = userOrThrow401(ctx);
  const rows = await repo.listFollowing(ctx.db, user.id, FOLLOWING_SHOWN);
  return rows.map((r) => ({ writerId: r.writer_id, name: nameOf(r), photo: r.profile_photo ?? r.account_image, delivery: r.delivery, since: r.created_at }));
}

/**
 * What the follow button beside a writer shows: whether the viewer follows them. Null for the
 * writer themselves (nobody follows themselves). The caller has already shown the writer's blog
 * or page, so visibility is its rule, not repeated here; a visitor costs no query.
 */
export async function followStateForWriter(ctx: ServiceContext, writerId: string): Promise<{ writerId: string; following: boolean } | null> {
  if (writerId === ctx.user?.id) return null;
  return { writerId, following: ctx.user ? await repo.isFollowing(ctx.db, ctx.user.id, writerId) : false };
}

/** How many people follow a writer: shown on the author page, public like the follow button. */
export async function countFollowers(ctx: ServiceContext, writerId: string): Promise<number> {
  return repo.countFollowers(ctx.db, writerId);
}

/**
 * Ends follows for a mailed unsubscribe link, without a login: the caller proved the link is
 * ours (mail/mail-token). Answers the writer's name when one writer was meant.
 */

export async function writerName(ctx: ServiceContext, writerId: string): Promise<string | null> {
  const writer = await repo.findWriter(ctx.db, writerId);
  return writer ? nameOf(writer) : null;
}

/**
 * A signed unsubscribe link in a follower's mail ends that follow, or all of them, at once
 * (RFC 8058): the writer's next post must not reach her, so this is no later job but part of the
 * link's answer (docs/decisions/071). Ending what has ended already is no error.
 */
export async function endFollowsByLink(ctx: ServiceContext, followerId: string, writerId?: string): Promise<void> {
  await endFollows(ctx, followerId, writerId);
  ctx.log.info({ follower: followerId, writer: writerId ?? 'all' }, 'follows: ended by a mail link');
}
