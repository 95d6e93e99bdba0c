import type { ServiceContext } from '~/lib/core/service-context';
import { federationOf } from './federation-registry.server';
import * as repo from './federation.repo.server';
import { ensureHandle, listOwnRemoteFollowers, type OwnFollower, removeOwnRemoteFollower } from './federation.service.server';
import { type RemoteReactionCounts, remoteReactionCounts } from './reactions.service.server';

/**
 * What pages show of federation (docs/decisions/068): a writer's handle, and the writer's own
 * followers on other servers. Null or empty while federation is off.
 */

/** Whether this site federates (PUBLIC_URL set, FEDERATION not off). */
export function federates(ctx: ServiceContext): boolean {
  return federationOf(ctx) !== null;
}

/** `@handle@host` for a writer, or null when federation is off or there is no such person. */
export async function fediverseHandleOf(ctx: ServiceContext, userId: string): Promise<string | null> {
  const site = federationOf(ctx);
  if (!site) return null;
  const handle = await ensureHandle(ctx, userId, site.settings.siteName);
  return handle ? `@${handle}@${new URL(site.settings.origin).host}` : null;
}

/** The signed-in writer's followers elsewhere (their profile), or null when federation is off. */
export async function ownFediverseFollowers(ctx: ServiceContext): Promise<OwnFollower[] | null> {
  return federationOf(ctx) ? listOwnRemoteFollowers(ctx) : null;
}

export { removeOwnRemoteFollower };

/** A post's likes and boosts from other servers (docs/decisions/080); null while federation is off or when the post does not go out. */
export async function fediverseReactionsOf(ctx: ServiceContext, blogId: string): Promise<RemoteReactionCounts | null> {
  return federationOf(ctx) ? remoteReactionCounts(ctx, blogId) : null;
}

/** What `npm run federation:status` prints: the queue and what federation keeps. */
export async function federationStatus(ctx: Pick<ServiceContext, 'db'>): Promise<string[]> {
  const queue = Object.fromEntries((await repo.queueCounts(ctx.db)).map((r) => [r.status, r.n]));
  const counts = await repo.tableCounts(ctx.db);
  return [
    `queue: ${queue.queued ?? 0} queued, ${queue.running ?? 0} running, ${queue.done ?? 0} done (kept two days), ${queue.dead ?? 0} dead`,
    `writers with a handle: ${counts.handles}; followers on other servers: ${counts.followers}`,
    `replies from other servers: ${counts.replies}, by ${counts.remoteActors} remote accounts`,
  ];
}
