import { assertCanWrite } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { newId } from '~/lib/core/ids.server';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { REMOTE_FOLLOWING_TEXTS } from '~/lib/texts/remote-following';
import * as federationRepo from './federation.repo.server';
import { federationOf } from './federation-registry.server';
import { isRemoteBlocked } from './federation.service.server';
import * as repo from './remote-following.repo.server';
import { FOLLOWING_FEED_LIMIT, type FollowFromServerInput, type FollowRemoteInput, type ReplyRemoteInput } from './remote-following.schema';

/** Fedify's side of following, loaded by the first follow, reply or look-up (docs/decisions/087). */
const remote = () => import('./remote-accounts.server');

/**
 * Readers here follow accounts on other servers (docs/decisions/081): a Follow from the reader's
 * own actor, pending until the account's server accepts it; their posts come to /following; a
 * reader answers one with a reply from their actor. Blocked accounts and servers are out of reach.
 */

/** The accounts a reader follows elsewhere; nobody follows more in practice. */
const REMOTE_FOLLOWING_SHOWN = 200;

export interface RemoteFollowJson {
  id: string;
  handle: string;
  name: string | null;
  actorUri: string;
  profileUrl: string | null;
  avatarUrl: string | null;
  state: 'pending' | 'accepted';
  since: string;
}

const followJson = (r: NonNullable<Awaited<ReturnType<typeof repo.findFollow>>>): RemoteFollowJson => ({
  id: r.id,
  handle: r.handle,
  name: r.name,
  actorUri: r.actor_uri,
  profileUrl: r.profile_url,
  avatarUrl: r.avatar_url,
  state: r.state,
  since: r.created_at,
});

function federationOn(ctx: ServiceContext) {
  if (!federationOf(ctx)) throw new AppError('bad_request', REMOTE_FOLLOWING_TEXTS.off);
}

/** A signed-in reader follows an account on another server by its handle or profile address. */
export async function followRemoteAccount(ctx: ServiceContext, input: FollowRemoteInput): Promise<{ follow: RemoteFollowJson; created: boolean }> {
  const user = await assertCanWrite(ctx);
  federationOn(ctx);
  // Counted before anything is asked of another server: the page form and the API share it.
  await ctx.limit(RATE_LIMITS.remoteFollow);
  return requestFollow(ctx, user.id, input.account.trim());
}

/**
 * A follow brought back by an import of our own export (docs/decisions/089): asked again by the
 * account's address (its handle may have changed since), from the importing writer's actor, by
 * the same rules as a follow typed on /following. Refusals are AppErrors the report shows.
 */
export async function followImportedAccount(ctx: ServiceContext, userId: string, account: { actorUri: string }): Promise<'requested' | 'existing'> {
  federationOn(ctx);
  const { created } = await requestFollow(ctx, userId, account.actorUri);
  return created ? 'requested' : 'existing';
}

async function requestFollow(ctx: ServiceContext, userId: string, typed: string): Promise<{ follow: RemoteFollowJson; created: boolean }> {
  const origin = new URL(federationOf(ctx)!.settings.origin);
  const host = (/^@?[^@\s/]+@([^@\s/]+)$/.exec(typed)?.[1] ?? (URL.canParse(typed) ? new URL(typed).host : '')).toLowerCase();
  if (host === origin.host) throw new AppError('bad_request', REMOTE_FOLLOWING_TEXTS.ownSite);
  // A blocked server is not even asked.
  if (host && (await isRemoteBlocked(ctx, `https://${host}/`))) throw new AppError('forbidden', REMOTE_FOLLOWING_TEXTS.blocked);
  const account = await (await remote()).resolveRemoteAccount(ctx, typed);
  if (!account) throw new AppError('not_found', REMOTE_FOLLOWING_TEXTS.notFound);
  if (new URL(account.uri).origin === origin.origin) throw new AppError('bad_request', REMOTE_FOLLOWING_TEXTS.ownSite);
  if (await isRemoteBlocked(ctx, account.uri)) throw new AppError('forbidden', REMOTE_FOLLOWING_TEXTS.blocked);
  const now = ctx.now().toISOString();
  const actor = await federationRepo.upsertRemoteActor(ctx.db, { id: newId(), uri: account.uri, handle: account.handle, name: account.name, avatar_url: account.avatarUrl, profile_url: account.profileUrl, now });
  const existing = await repo.findFollow(ctx.db, userId, { remoteActorId: actor.id });
  if (existing) return { follow: followJson(existing), created: false };
  const id = newId();
  const followUri = (await remote()).followUriOf(ctx, userId, id)!;
  const created = await repo.insertFollow(ctx.db, { id, follower_id: userId, remote_actor_id: actor.id, inbox: account.inbox, shared_inbox: account.sharedInbox, follow_uri: followUri, state: 'pending', created_at: now, accepted_at: null });
  const row = (await repo.findFollow(ctx.db, userId, { remoteActorId: actor.id }))!;
  if (created) await (await remote()).sendFollow(ctx, userId, followUri, { actorUri: account.uri, inbox: account.inbox, sharedInbox: account.sharedInbox });
  return { follow: followJson(row), created };
}

/** The reader stops following an account elsewhere: the follow goes, and an Undo tells its server. */
export async function unfollowRemoteAccount(ctx: ServiceContext, followId: string): Promise<{ deletedCount: number }> {
  const user = await assertCanWrite(ctx);
  const row = await repo.findFollow(ctx.db, user.id, { id: followId });
  if (!row) throw new AppError('not_found', REMOTE_FOLLOWING_TEXTS.followNotFound);
  const deletedCount = await repo.deleteFollow(ctx.db, user.id, row.id);
  if (deletedCount > 0) await (await remote()).sendUnfollow(ctx, user.id, row.follow_uri, { actorUri: row.actor_uri, inbox: row.inbox, sharedInbox: row.shared_inbox });
  return { deletedCount };
}

/**
 * A moderator blocked an account or a whole server (docs/decisions/089): every reader's follow of
 * it ends as an unfollow would (an Undo goes there, so its server stops sending), and its posts
 * leave /following. Lifting the block brings none of it back. Answers how many follows ended.
 */
export async function endFollowsOfBlocked(ctx: ServiceContext, block: { kind: 'account' | 'instance'; target: string }): Promise<number> {
  let ended = 0;
  for (const row of await repo.followsMatching(ctx.db, block)) {
    if ((await repo.deleteFollow(ctx.db, row.follower_id, row.id)) === 0) continue;
    ended += 1;
    await (await remote()).sendUnfollow(ctx, row.follower_id, row.follow_uri, { actorUri: row.actor_uri, inbox: row.inbox, sharedInbox: row.shared_inbox });
  }
  await repo.deletePostsMatching(ctx.db, block);
  return ended;
}

/** The accounts elsewhere the signed-in reader follows, newest first; none while federation is off. */
export async function listRemoteFollowing(ctx: ServiceContext): Promise<RemoteFollowJson[]> {
  const user = userOrThrow401(ctx);
  if (!federationOf(ctx)) return [];
  return (await repo.listFollows(ctx.db, user.id, REMOTE_FOLLOWING_SHOWN)).map(followJson);
}

export interface RemotePostJson {
  id: string;
  kind: 'Article' | 'Note';
  title: string | null;
  summary: string | null;
  /** Sanitised when it arrived (docs/decisions/081). */
  html: string;
  url: string;
  publishedAt: string;
  updatedAt: string | null;
  author: { handle: string; name: string | null; profileUrl: string | null };
  myReplies: { id: string; text: string; at: string }[];
}

/** The newest posts of the accounts elsewhere the reader follows, with the reader's own replies; blocked ones are left out. */
export async function listRemoteFollowingPosts(ctx: ServiceContext, limit = FOLLOWING_FEED_LIMIT): Promise<RemotePostJson[]> {
  const user = userOrThrow401(ctx);
  if (!federationOf(ctx)) return [];
  const rows = await repo.listFeed(ctx.db, user.id, limit);
  const blocked = new Set<string>();
  for (const actor of new Set(rows.map((r) => r.actor_uri))) if (await isRemoteBlocked(ctx, actor)) blocked.add(actor);
  const shown = rows.filter((r) => !blocked.has(r.actor_uri));
  const replies = await repo.listOwnReplies(ctx.db, user.id, shown.map((r) => r.id));
  return shown.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    summary: r.summary,
    html: r.content,
    url: r.url ?? r.uri,
    publishedAt: r.published_at,
    updatedAt: r.updated_at,
    author: { handle: r.handle, name: r.name, profileUrl: r.profile_url },
    myReplies: replies.filter((x) => x.remote_post_id === r.id).map((x) => ({ id: x.id, text: x.reply_text, at: x.created_at })),
  }));
}

/** The reader answers a post of an account they follow: a reply from their actor, to its author. */
export async function replyToRemotePost(ctx: ServiceContext, input: ReplyRemoteInput): Promise<{ insertedId: string }> {
  const user = await assertCanWrite(ctx);
  federationOn(ctx);
  await ctx.limit(RATE_LIMITS.comment);
  const post = await repo.findPostForFollower(ctx.db, input.postId, user.id);
  if (!post) throw new AppError('not_found', REMOTE_FOLLOWING_TEXTS.postNotFound);
  if (await isRemoteBlocked(ctx, post.actor_uri)) throw new AppError('forbidden', REMOTE_FOLLOWING_TEXTS.blocked);
  const id = newId();
  const at = ctx.now().toISOString();
  await repo.insertReply(ctx.db, { id, remote_post_id: post.id, user_id: user.id, reply_text: input.text, created_at: at });
  await (await remote()).sendReply(ctx, { id, userId: user.id, text: input.text, at, inReplyTo: post.uri, author: { actorUri: post.actor_uri, handle: post.handle, inbox: post.inbox, sharedInbox: post.shared_inbox } });
  return { insertedId: id };
}

/** "Follow from your server": the reader's own server's page for following a writer here (or an error to show). */
export async function followFromServerUrl(ctx: ServiceContext, input: FollowFromServerInput): Promise<string> {
  federationOn(ctx);
  const url = await (await remote()).interactionUrlOf(ctx, input.server, input.account);
  if (!url) throw new AppError('not_found', REMOTE_FOLLOWING_TEXTS.serverNotFound);
  return url;
}
