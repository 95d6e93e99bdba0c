import { sanitiseForeignHtml } from '~/features/blogs/markdown-render';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import * as repo from './remote-following.repo.server';
import { REMOTE_POSTS_KEEP_DAYS, REMOTE_POSTS_PER_ACCOUNT } from './remote-following.schema';

/**
 * What arrives from the accounts readers here follow (docs/decisions/081): the answer to a
 * Follow, and their public top-level posts, kept for /following. The ActivityPub side has checked
 * the signature, the sender's block and that the object is the sender's own.
 */

/** The account accepted a reader's Follow (only the account it was sent to can). */
export async function receiveFollowAccepted(ctx: Pick<ServiceContext, 'db' | 'now'>, followUri: string, actorUri: string): Promise<boolean> {
  return (await repo.acceptFollow(ctx.db, followUri, actorUri, ctx.now().toISOString())) > 0;
}

/** The account refused it: the follow is forgotten. */
export async function receiveFollowRejected(ctx: Pick<ServiceContext, 'db'>, followUri: string, actorUri: string): Promise<boolean> {
  return (await repo.deleteFollowByUri(ctx.db, followUri, actorUri)) > 0;
}

export interface IncomingPost {
  uri: string;
  actorUri: string;
  kind: 'Article' | 'Note';
  title: string | null;
  summary: string | null;
  html: string;
  url: string | null;
  published: string | null;
  updated: string | null;
}

const TITLE_MAX = 300;
const SUMMARY_MAX = 2000;
const CONTENT_MAX = 200_000;
const plain = (html: string | null, max: number) => (html ? sanitiseForeignHtml(html, []).replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max) || null : null);
const httpUrl = (url: string | null) => (url && /^https?:\/\//i.test(url) && URL.canParse(url) ? url : null);

// No picture of theirs is ours: each becomes a link (no base is given).
function shownOf(post: IncomingPost) {
  return {
    title: plain(post.title, TITLE_MAX),
    summary: plain(post.summary, SUMMARY_MAX),
    content: sanitiseForeignHtml(post.html.slice(0, CONTENT_MAX), []),
    url: httpUrl(post.url),
  };
}

/**
 * A followed account published: the post is kept for its followers here. Nothing is kept from an
 * account nobody here follows (a stranger cannot fill our tables by writing to the inbox).
 */
export async function receiveFollowedPost(ctx: ServiceContext, post: IncomingPost): Promise<boolean> {
  const actorId = await repo.findFollowedActor(ctx.db, post.actorUri);
  if (!actorId) return false;
  const now = ctx.now().toISOString();
  const published = post.published && post.published < now ? post.published : now;
  await repo.insertPost(ctx.db, { id: newId(), uri: post.uri, remote_actor_id: actorId, kind: post.kind, ...shownOf(post), published_at: published, updated_at: post.updated, received_at: now });
  return true;
}

/** Its author changed a post we keep. */
export async function receiveFollowedPostEdit(ctx: ServiceContext, post: IncomingPost): Promise<boolean> {
  const actorId = await repo.findFollowedActor(ctx.db, post.actorUri);
  if (!actorId) return false;
  return (await repo.updatePost(ctx.db, post.uri, actorId, { ...shownOf(post), updated_at: post.updated ?? ctx.now().toISOString() })) > 0;
}

/** Its author deleted a post we keep. */
export async function receiveFollowedPostDelete(ctx: Pick<ServiceContext, 'db'>, uri: string, actorUri: string): Promise<boolean> {
  return (await repo.deletePost(ctx.db, uri, actorUri)) > 0;
}

/** Bounded retention (a periodic task): the newest posts of each followed account, for a while. */
export async function pruneRemotePosts(ctx: Pick<ServiceContext, 'db'>, at: Date): Promise<number> {
  const before = new Date(at.getTime() - REMOTE_POSTS_KEEP_DAYS * 86_400_000).toISOString();
  return repo.prunePosts(ctx.db, { before, perActor: REMOTE_POSTS_PER_ACCOUNT });
}

