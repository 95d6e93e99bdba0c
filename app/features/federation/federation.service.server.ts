import sanitizeHtml from 'sanitize-html';
import { addRemoteComment, deleteRemoteComment, editRemoteComment, removeRemoteAuthorsComments } from '~/features/blogs/remote-comments.service.server';
import { audit, requireRole } from '~/features/moderation/moderation.service.server';
import type { RemoteBlockInput } from './federation.schema';
import { suspensionOf } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import * as repo from './federation.repo.server';
import { deleteReactionsMatching } from './reactions.repo.server';

/**
 * The rules of federation (docs/decisions/068): who is an actor and by which handle, what may
 * leave the site, and who follows whom from elsewhere. The ActivityPub side (federation.server.ts)
 * asks these; it decides nothing itself.
 */

/** The site's own actor (a Service that announces every public blog) has this identifier. */
export const SITE_ACTOR = 'site';

/** Handles nobody gets: the site's own, and names that read as the site speaking. */
const RESERVED = new Set(['site', 'admin', 'administrator', 'moderator', 'moderation', 'root', 'support', 'afterglow', 'inbox', 'ap', 'well_known']);

const HANDLE_MAX = 30;

/** A handle made from a name: lowercase ASCII letters, digits and underscores (what Mastodon accepts). */
export function handleFromName(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, HANDLE_MAX)
    .replace(/_+$/, '');
  return base || 'writer';
}

/** The site's handle: its name as a handle, reserved against writers' handles. */
export function siteHandle(siteName: string): string {
  return handleFromName(siteName);
}

/** The handles tried for a name, in order: the name's own, then numbered ones; reserved ones skipped. */
function* handleCandidates(base: string, siteName: string): Generator<string> {
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, HANDLE_MAX - String(n).length)}${n}`;
    if (!RESERVED.has(candidate) && candidate !== siteHandle(siteName)) yield candidate;
  }
}

/**
 * The person's current handle, made once from their name when they have none: unique across
 * the site (a number is added when taken) and never given to anyone else.
 */
export async function ensureHandle(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string, siteName: string): Promise<string | null> {
  const profile = await repo.findActorProfile(ctx.db, userId);
  if (!profile) return null;
  if (profile.handle) return profile.handle;
  const base = handleFromName(profile.name);
  for (const candidate of handleCandidates(base, siteName)) {
    if (await repo.insertHandle(ctx.db, { handle: candidate, userId, now: ctx.now().toISOString() })) return candidate;
    // Another instance may have given this person a handle at the same moment.
    const again = await repo.findActorProfile(ctx.db, userId);
    if (again?.handle) return again.handle;
  }
  const fallback = `${base.slice(0, HANDLE_MAX - 9)}_${newId().slice(0, 8)}`;
  await repo.insertHandle(ctx.db, { handle: fallback, userId, now: ctx.now().toISOString() });
  return (await repo.findActorProfile(ctx.db, userId))?.handle ?? null;
}

/**
 * A renamed person's handle follows their new name (docs/decisions/080): the new name's handle
 * (or one of theirs from before, or a numbered one when it is taken) becomes current, and the old
 * one stays theirs as an alias that still answers WebFinger for the same actor, whose id never
 * changes. Nothing moves while the handle already reads as the name. Answers the new handle, or
 * null when nothing moved.
 */
export async function moveHandleToName(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string, siteName: string): Promise<string | null> {
  const profile = await repo.findActorProfile(ctx.db, userId);
  if (!profile?.handle) return null;
  const base = handleFromName(profile.name);
  if (profile.handle === base || [...handleCandidates(base, siteName)].includes(profile.handle)) return null;
  return ctx.db.transaction().execute(async (db) => {
    await repo.retireCurrentHandle(db, userId);
    for (const candidate of handleCandidates(base, siteName)) {
      const held = await repo.findHandle(db, candidate);
      if (held && held.user_id !== userId) continue;
      if (held ? await repo.makeHandleCurrent(db, candidate, userId) : await repo.insertHandle(db, { handle: candidate, userId, now: ctx.now().toISOString() })) return candidate;
    }
    // Every handle of the name is someone else's: the old one stays current.
    await repo.makeHandleCurrent(db, profile.handle!, userId);
    return null;
  });
}

/** Gives a handle to people who have none yet (a periodic task), so every writer can be found. */
export async function assignMissingHandles(ctx: Pick<ServiceContext, 'db' | 'now'>, siteName: string, limit = 500): Promise<number> {
  const users = await repo.usersWithoutHandle(ctx.db, limit);
  for (const user of users) await ensureHandle(ctx, user.id, siteName);
  return users.length;
}

/** The identifier (user id or SITE_ACTOR) a handle names, current or old; null when none. */
export async function identifierOfHandle(ctx: Pick<ServiceContext, 'db'>, handle: string, siteName: string): Promise<string | null> {
  const lower = handle.toLowerCase();
  if (lower === siteHandle(siteName)) return SITE_ACTOR;
  return (await repo.findHandle(ctx.db, lower))?.user_id ?? null;
}

export interface ActorProfile {
  id: string;
  handle: string;
  name: string;
  bio: string | null;
  image: string | null;
  website: string | null;
}

/** A writer as an actor, with their handle (made now when they had none); null when no such person. */
export async function actorProfile(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string, siteName: string): Promise<ActorProfile | null> {
  const handle = await ensureHandle(ctx, userId, siteName);
  const row = await repo.findActorProfile(ctx.db, userId);
  if (!row || !handle) return null;
  return { id: row.id, handle, name: row.name, bio: row.bio, image: row.image, website: row.website };
}

/**
 * A post as it may leave the site, or null when it must not: only a Public blog, not removed by a
 * moderator, not held by the spam hold, not waiting for approval, of an account not suspended.
 * Every delivery and every answer to a remote fetch passes here (docs/decisions/068).
 */
export async function outgoingPost(ctx: ServiceContext, blogId: string): Promise<repo.PostRow | null> {
  const post = await repo.findPost(ctx.db, blogId);
  if (!post || !(await mayLeave(ctx, post))) return null;
  return post;
}

async function mayLeave(ctx: ServiceContext, post: repo.PostRow): Promise<boolean> {
  const now = ctx.now().toISOString();
  if (post.availability !== 'Public' || post.removed_at !== null || post.pending_since !== null) return false;
  if (post.held_until !== null && post.held_until > now) return false;
  return (await suspensionOf(ctx, post.owner_id)) === null;
}

/** A writer's posts that may leave, newest first (their outbox); none while they are suspended. */
export interface OutgoingComment {
  comment: repo.CommentRow & { user_id: string };
  post: repo.PostRow;
  /** What it answers: null for the post itself, else the comment (ours, or a remote reply with its original id). */
  parent: NonNullable<Awaited<ReturnType<typeof repo.findParentForReply>>> | null;
}

/**
 * A local comment as it may leave the site, or null when it must not: written here by an account
 * not suspended, shown to every reader (not deleted, hidden, removed or waiting), under a post
 * that may leave. Its delivery and every answer to a remote fetch of it pass here (docs/decisions/068).
 */
export async function outgoingComment(ctx: ServiceContext, commentId: string): Promise<OutgoingComment | null> {
  const comment = await repo.findComment(ctx.db, commentId);
  if (!comment || comment.user_id === null || comment.deleted_at || comment.hidden_at || comment.removed_at || comment.pending_since) return null;
  const post = await outgoingPost(ctx, comment.blog_id);
  if (!post || (await suspensionOf(ctx, comment.user_id))) return null;
  const parent = comment.parent_id ? ((await repo.findParentForReply(ctx.db, comment.parent_id)) ?? null) : null;
  if (comment.parent_id && !parent) return null;
  return { comment: { ...comment, user_id: comment.user_id }, post, parent };
}

/** The remote author a withdrawn comment answered (its Delete goes to them too); null when it answered one of ours or the post. */
export async function remoteParentOf(ctx: Pick<ServiceContext, 'db'>, parentId: string | null): Promise<string | null> {
  return parentId ? ((await repo.findParentForReply(ctx.db, parentId))?.actor_uri ?? null) : null;
}

export async function outgoingPostsOf(ctx: ServiceContext, ownerId: string | null, page: { limit: number; before?: string }): Promise<repo.PostRow[]> {
  if (ownerId && (await suspensionOf(ctx, ownerId))) return [];
  const posts = await repo.listOutgoingPosts(ctx.db, ownerId, { now: ctx.now().toISOString(), ...page });
  if (ownerId) return posts;
  const kept: repo.PostRow[] = [];
  for (const post of posts) if (await mayLeave(ctx, post)) kept.push(post);
  return kept;
}

export async function countOutgoingPosts(ctx: ServiceContext, ownerId: string | null): Promise<number> {
  if (ownerId && (await suspensionOf(ctx, ownerId))) return 0;
  return repo.countOutgoingPosts(ctx.db, ownerId, ctx.now().toISOString());
}

/** Every post of a writer that went out and must now be taken back (their account was suspended). */
export async function postsToTakeBack(ctx: ServiceContext, ownerId: string): Promise<repo.PostRow[]> {
  return repo.listOutgoingPosts(ctx.db, ownerId, { now: ctx.now().toISOString(), limit: 10_000 });
}

/** Before an account goes (docs/decisions/088): its posts that went out, noted while the rows say it. */
export async function postsLeavingWith(ctx: ServiceContext, ownerId: string): Promise<string[]> {
  return (await postsToTakeBack(ctx, ownerId)).map((p) => p.id);
}

const goneKey = (userId: string) => ['afterglow', 'gone-actor', userId] as const;

/** When a deleted account left, if it did: its actor then answers 410 Gone (docs/decisions/088). */
export async function actorGoneAt(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string): Promise<string | null> {
  const value = await repo.kvGet(ctx.db, JSON.stringify(goneKey(userId)), ctx.now().toISOString());
  return value === undefined ? null : (JSON.parse(value) as { at: string }).at;
}

/**
 * A deleted account's last activities are queued (each queued delivery carries its signing keys):
 * its keys and followers are dropped, and its actor, if it ever had keys (it was seen on the
 * fediverse), is remembered as gone, for good.
 */
export async function forgetActor(ctx: Pick<ServiceContext, 'db' | 'now'>, userId: string, at: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if ((await repo.forgetActor(trx, userId)) > 0) await repo.kvSet(trx, JSON.stringify(goneKey(userId)), JSON.stringify({ at }), null);
  });
}

/** Whether the deleted account's comments still wait for their Deletes (signed with its keys). */
export async function commentWithdrawalsWaiting(ctx: Pick<ServiceContext, 'db'>, userId: string): Promise<boolean> {
  return repo.commentWithdrawalsWaiting(ctx.db, userId);
}

export interface RemoteFollowerInput {
  actorUri: string;
  handle: string;
  inbox: string;
  sharedInbox: string | null;
}

/** Someone elsewhere follows a local actor (accepted at once: nothing here is followers-only). */
export async function addRemoteFollower(ctx: Pick<ServiceContext, 'db' | 'now'>, localActor: string, follower: RemoteFollowerInput): Promise<void> {
  await repo.insertFollower(ctx.db, {
    id: `${ctx.now().toISOString()}-${newId()}`,
    local_actor: localActor,
    actor_uri: follower.actorUri,
    handle: follower.handle,
    inbox: follower.inbox,
    shared_inbox: follower.sharedInbox,
    created_at: ctx.now().toISOString(),
  });
}

/** They stopped following (an Undo of their Follow). */
export async function removeRemoteFollower(ctx: Pick<ServiceContext, 'db'>, localActor: string, actorUri: string): Promise<boolean> {
  return (await repo.deleteFollower(ctx.db, localActor, actorUri)) > 0;
}

/** Followers of a local actor as delivery targets; a page after `after` (an id), or all. */
export async function followersOf(ctx: Pick<ServiceContext, 'db'>, localActor: string, page: { after?: string; limit: number }) {
  return repo.listFollowers(ctx.db, localActor, page);
}

export async function followerCount(ctx: Pick<ServiceContext, 'db'>, localActor: string): Promise<number> {
  return repo.countFollowers(ctx.db, localActor);
}

export interface OwnFollower {
  id: string;
  handle: string;
  actorUri: string;
  since: string;
}

/** The signed-in writer's followers on other servers (their profile lists them). */
export async function listOwnRemoteFollowers(ctx: ServiceContext): Promise<OwnFollower[]> {
  const user = userOrThrow401(ctx);
  const rows = await repo.listFollowers(ctx.db, user.id, { limit: 1000 });
  return rows.map((r) => ({ id: r.id, handle: r.handle, actorUri: r.actor_uri, since: r.created_at }));
}

/** The signed-in writer removes a follower from elsewhere: nothing of theirs is delivered there again. */
export async function removeOwnRemoteFollower(ctx: ServiceContext, followerId: string): Promise<{ removed: OwnFollower }> {
  const user = userOrThrow401(ctx);
  const row = await repo.findFollower(ctx.db, user.id, followerId);
  if (!row) throw new AppError('not_found', FEDERATION_TEXTS.followerNotFound);
  await repo.deleteFollower(ctx.db, user.id, row.actor_uri);
  return { removed: { id: row.id, handle: row.handle, actorUri: row.actor_uri, since: row.created_at } };
}

export async function countLocalUsers(ctx: Pick<ServiceContext, 'db'>): Promise<number> {
  return repo.countUsers(ctx.db);
}

// ---- replies from other servers (docs/decisions/068) ----

const COMMENT_MAX = 5000;

/** Remote HTML as the plain text our comments hold: no tag, no attribute survives; paragraphs and breaks stay lines. */
export function textOfRemoteHtml(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>\s*<p[^>]*>/gi, '\n\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text.trim().slice(0, COMMENT_MAX);
}

export interface RemoteAuthor {
  uri: string;
  handle: string;
  name: string | null;
  avatarUrl: string | null;
  profileUrl: string | null;
}

/**
 * Where a reply hangs: one of our federated posts (by its id or its page), a comment under one
 * (by its thread page), or another reply from elsewhere that became a comment here.
 */
async function replyTarget(ctx: ServiceContext, origin: string, inReplyTo: string): Promise<{ blogId: string; parentId: string | null } | null> {
  let target: { blogId: string; parentId: string | null } | null = null;
  const url = URL.canParse(inReplyTo) ? new URL(inReplyTo) : null;
  if (url && url.origin === new URL(origin).origin) {
    const post = /^\/(?:ap\/posts|blogs)\/([^/]+)$/.exec(url.pathname);
    const ours = /^\/ap\/comments\/([^/]+)$/.exec(url.pathname)?.[1];
    const oursBlog = ours ? await repo.findCommentBlog(ctx.db, decodeURIComponent(ours)) : undefined;
    const comment = /^\/blogs\/([^/]+)\/comments\/([^/]+)$/.exec(url.pathname);
    if (post) target = { blogId: decodeURIComponent(post[1]!), parentId: null };
    else if (ours && oursBlog) target = { blogId: oursBlog, parentId: decodeURIComponent(ours) };
    else if (comment && (await repo.findCommentBlog(ctx.db, decodeURIComponent(comment[2]!))) === decodeURIComponent(comment[1]!)) {
      target = { blogId: decodeURIComponent(comment[1]!), parentId: decodeURIComponent(comment[2]!) };
    }
  } else {
    const reply = await repo.findReply(ctx.db, inReplyTo);
    if (reply) target = { blogId: reply.blog_id, parentId: reply.comment_id };
  }
  // Only a post that went out takes replies from elsewhere.
  return target && (await outgoingPost(ctx, target.blogId)) ? target : null;
}

/** A reply arrived: it becomes a comment threaded under what it answers; null when it answers nothing of ours. */
export async function receiveRemoteReply(ctx: ServiceContext, origin: string, reply: { uri: string; inReplyTo: string; html: string; author: RemoteAuthor }): Promise<{ commentId: string; pending: boolean } | null> {
  if (await repo.findReply(ctx.db, reply.uri)) return null;
  const target = await replyTarget(ctx, origin, reply.inReplyTo);
  const text = textOfRemoteHtml(reply.html);
  if (!target || !text) return null;
  const now = ctx.now().toISOString();
  const actor = await repo.upsertRemoteActor(ctx.db, {
    id: newId(),
    uri: reply.author.uri,
    handle: reply.author.handle,
    name: reply.author.name,
    avatar_url: reply.author.avatarUrl,
    profile_url: reply.author.profileUrl,
    now,
  });
  const added = await addRemoteComment(ctx, { ...target, remoteActorId: actor.id, authorFirstSeen: actor.created_at, text, author: { handle: reply.author.handle, name: reply.author.name } });
  if (!added) return null;
  await repo.insertReply(ctx.db, { uri: reply.uri, comment_id: added.id, actor_uri: reply.author.uri, created_at: now });
  return { commentId: added.id, pending: added.pending };
}

/** Its author edited a reply (only its author: the actor that sent it). */
export async function receiveRemoteReplyEdit(ctx: ServiceContext, uri: string, actorUri: string, html: string): Promise<boolean> {
  const reply = await repo.findReply(ctx.db, uri);
  const text = textOfRemoteHtml(html);
  if (!reply || reply.actor_uri !== actorUri || !text) return false;
  return editRemoteComment(ctx, reply.comment_id, text);
}

/** Its author deleted a reply. */
export async function receiveRemoteReplyDelete(ctx: ServiceContext, uri: string, actorUri: string): Promise<boolean> {
  const reply = await repo.findReply(ctx.db, uri);
  if (!reply || reply.actor_uri !== actorUri) return false;
  return deleteRemoteComment(ctx, reply.comment_id);
}

// ---- blocks (docs/decisions/068) ----

/** Whether activities of this actor (or of its server) are refused. */
export async function isRemoteBlocked(ctx: Pick<ServiceContext, 'db'>, actorUri: string): Promise<boolean> {
  return repo.isBlocked(ctx.db, actorUri, new URL(actorUri).host.toLowerCase());
}

/** What takes back something sent before: it goes to a blocked side too (docs/decisions/094). */
const TAKING_BACK = new Set(['Undo', 'Delete', 'Reject'].map((type) => `https://www.w3.org/ns/activitystreams#${type}`));

/** A queued delivery: one activity for one inbox, and the accounts it is for there (Fedify's outbox message). */
export interface QueuedDelivery {
  activityType: string;
  inbox: string;
  actorIds?: readonly string[] | undefined;
}

/**
 * Whether a queued delivery goes to a side blocked since it was queued (docs/decisions/094): the
 * inbox's server is blocked, or every account it is for is (each one, or its server). It is then
 * dropped when it runs. What takes something back (an Undo, a Delete, a Reject: the block's own
 * Undo of our readers' follows among them) still goes: it tells them to stop, and carries nothing new.
 */
export async function isDeliveryBlocked(ctx: Pick<ServiceContext, 'db'>, delivery: QueuedDelivery): Promise<boolean> {
  if (TAKING_BACK.has(delivery.activityType) || !URL.canParse(delivery.inbox)) return false;
  const hostOf = (uri: string) => (URL.canParse(uri) ? new URL(uri).host.toLowerCase() : '');
  const server = hostOf(delivery.inbox);
  const actors = delivery.actorIds ?? [];
  const blocks = await repo.blocksAmong(ctx.db, { actors, hosts: [...new Set([server, ...actors.map(hostOf)])] });
  if (blocks.length === 0) return false;
  const blocked = (kind: 'account' | 'instance', target: string) => blocks.some((b) => b.kind === kind && b.target === target);
  return blocked('instance', server) || (actors.length > 0 && actors.every((actor) => blocked('account', actor) || blocked('instance', hostOf(actor))));
}

/** What a moderator typed, as a block: an account by handle or address, or a server by host. */
async function blockTarget(ctx: ServiceContext, target: string): Promise<{ kind: 'account' | 'instance'; target: string }> {
  const handle = /^@?([^@\s/]+)@([^@\s/]+)$/.exec(target);
  if (handle) {
    const uri = await repo.findRemoteActorByHandle(ctx.db, `@${handle[1]}@${handle[2]!.toLowerCase()}`);
    if (!uri) throw new AppError('not_found', FEDERATION_TEXTS.unknownRemoteAccount);
    return { kind: 'account', target: uri };
  }
  if (/^https?:\/\//i.test(target) && URL.canParse(target)) return { kind: 'account', target: new URL(target).href };
  if (/^[a-z0-9.-]+(?::\d+)?$/i.test(target) && URL.canParse(`https://${target}`)) return { kind: 'instance', target: new URL(`https://${target}`).host };
  throw new AppError('bad_request', FEDERATION_TEXTS.badBlockTarget);
}

/**
 * A moderator blocks a remote account or a whole server: from now on their activities are
 * refused, they are no longer delivered to, and their replies here are removed.
 */
export async function blockRemote(ctx: ServiceContext, input: RemoteBlockInput): Promise<{ kind: 'account' | 'instance'; target: string; removedComments: number }> {
  const moderator = await requireRole(ctx, 'moderator');
  const block = await blockTarget(ctx, input.target);
  const made = await repo.insertBlock(ctx.db, { id: newId(), ...block, reason: input.reason, created_by: moderator.id, created_at: ctx.now().toISOString() });
  if (!made) throw new AppError('conflict', FEDERATION_TEXTS.alreadyBlocked);
  await audit(ctx, moderator.id, 'block', auditTargetOf(block), input.reason);
  await repo.deleteFollowersMatching(ctx.db, block);
  await deleteReactionsMatching(ctx.db, block);
  const removedComments = await removeRemoteAuthorsComments(ctx, { ...(block.kind === 'account' ? { actorUri: block.target } : { host: block.target }), reason: input.reason });
  return { ...block, removedComments };
}

export async function unblockRemote(ctx: ServiceContext, blockId: string): Promise<{ deletedCount: number }> {
  const moderator = await requireRole(ctx, 'moderator');
  const block = await repo.findBlock(ctx.db, blockId);
  const deletedCount = await repo.deleteBlock(ctx.db, blockId);
  // No reason is asked for lifting a block: the log's line says who and when.
  if (block && deletedCount > 0) await audit(ctx, moderator.id, 'unblock', auditTargetOf(block), '');
  return { deletedCount };
}

/** A block in the moderation log: an account by its actor id, a server by its host. */
const auditTargetOf = (block: { kind: 'account' | 'instance'; target: string }) => ({ type: block.kind === 'account' ? 'remote_account' : 'instance', id: block.target });

export interface RemoteBlockJson {
  id: string;
  kind: 'account' | 'instance';
  target: string;
  reason: string;
  createdAt: string;
}

export async function listRemoteBlocks(ctx: ServiceContext): Promise<RemoteBlockJson[]> {
  await requireRole(ctx, 'moderator');
  return (await repo.listBlocks(ctx.db)).map((b) => ({ id: b.id, kind: b.kind, target: b.target, reason: b.reason, createdAt: b.created_at }));
}
