import type { ServiceContext } from '~/lib/core/service-context';
import { outgoingPost } from './federation.service.server';
import * as repo from './reactions.repo.server';

/**
 * Likes and boosts from other servers (docs/decisions/080): a `Like` or `Announce` of one of our
 * federated posts is kept by its activity id and counted beside the local likes, never in them
 * (a local like is one per account here; a remote one is one per actor elsewhere).
 */

export type RemoteReactionKind = 'like' | 'announce';

export interface RemoteReactionCounts {
  likes: number;
  boosts: number;
}

/** Which of our posts an object id names: its Article (`/ap/posts/<id>`) or its page (`/blogs/<id>[/<slug>]`). */
export function postOfObject(origin: string, object: string): string | null {
  if (!URL.canParse(object)) return null;
  const url = new URL(object);
  if (url.origin !== new URL(origin).origin) return null;
  const id = (/^\/ap\/posts\/([^/]+)$/.exec(url.pathname) ?? /^\/blogs\/([^/]+)(?:\/[^/]+)?$/.exec(url.pathname))?.[1];
  return id ? decodeURIComponent(id) : null;
}

/** A like or boost arrived: kept when it is about a post that goes out; false when it is about nothing of ours, or known already. */
export async function receiveRemoteReaction(ctx: ServiceContext, origin: string, reaction: { id: string; actorUri: string; object: string; kind: RemoteReactionKind }): Promise<boolean> {
  const blogId = postOfObject(origin, reaction.object);
  if (!blogId || !(await outgoingPost(ctx, blogId))) return false;
  return repo.insertReaction(ctx.db, { id: reaction.id, blog_id: blogId, actor_uri: reaction.actorUri, kind: reaction.kind, created_at: ctx.now().toISOString() });
}

/** Its actor took a like or boost back (an `Undo` naming it); false when there is no such reaction of theirs. */
export async function receiveRemoteReactionUndo(ctx: Pick<ServiceContext, 'db'>, activityId: string, actorUri: string): Promise<boolean> {
  return (await repo.deleteReaction(ctx.db, activityId, actorUri)) > 0;
}

/** How many likes and boosts a post that goes out has from other servers; null for a post that does not go out. */
export async function remoteReactionCounts(ctx: ServiceContext, blogId: string): Promise<RemoteReactionCounts | null> {
  if (!(await outgoingPost(ctx, blogId))) return null;
  return repo.countReactions(ctx.db, blogId);
}

