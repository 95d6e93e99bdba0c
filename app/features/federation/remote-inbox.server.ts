import { Article, Note, PUBLIC_COLLECTION } from '@fedify/vocab';
import type { ServiceContext } from '~/lib/core/service-context';
import { type IncomingPost, receiveFollowedPost, receiveFollowedPostEdit } from './remote-posts.service.server';

/** The WebFinger link naming a server's page for following someone (OStatus's name, which every server uses). */
export const SUBSCRIBE_REL = 'http://ostatus.org/schema/1.0/subscribe';

/**
 * What the inbox does with a top-level post (no `inReplyTo`) from an account someone here follows
 * (docs/decisions/081): a public one is kept for /following, anything else is left alone. The
 * caller has checked the sender's block, and that the object is the sender's own.
 */
export async function followedPostArrived(ctx: ServiceContext, actorId: URL, object: Note | Article, how: 'create' | 'update'): Promise<boolean> {
  const audience = [...object.toIds, ...object.ccIds].map((u) => u.href);
  if (!object.id || !audience.includes(PUBLIC_COLLECTION.href)) return false;
  const post: IncomingPost = {
    uri: object.id.href,
    actorUri: actorId.href,
    kind: object instanceof Article ? 'Article' : 'Note',
    title: object.name?.toString() ?? null,
    summary: object.summary?.toString() ?? null,
    html: object.content?.toString() ?? '',
    url: object.url instanceof URL ? object.url.href : (object.url?.href?.href ?? null),
    published: object.published ? new Date(object.published.epochMilliseconds).toISOString() : null,
    updated: object.updated ? new Date(object.updated.epochMilliseconds).toISOString() : null,
  };
  return how === 'create' ? receiveFollowedPost(ctx, post) : receiveFollowedPostEdit(ctx, post);
}
