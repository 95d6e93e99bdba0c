import { onEvent } from '~/kernel/events.server';
import { definePeriodic } from '~/kernel/schedule.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { federationOf } from './federation-registry.server';
import { assignMissingHandles, moveHandleToName } from './federation.service.server';
import { endFollowsOfBlocked } from './remote-following.service.server';
import { pruneRemotePosts } from './remote-posts.service.server';

type Delivery = typeof import('./federation.server');

/**
 * Federation's delivery, with Fedify, loaded by the first event that has something to send: a
 * site that does not federate never loads it (docs/decisions/087). Every delivery does nothing
 * while federation is off, so nothing is skipped here that it would have sent.
 */
async function delivery(ctx: ServiceContext): Promise<Delivery | null> {
  return federationOf(ctx) ? import('./federation.server') : null;
}

/**
 * What federation does after a change elsewhere (docs/decisions/068): each event becomes
 * activities queued for delivery (Fedify's queue, our job table). Nothing is sent when federation
 * is off, and nothing that must not leave is ever queued (the service's outgoingPost rule).
 */
export const FEDERATION_SUBSCRIPTIONS = [
  onEvent('blog.published', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverPublished(ctx, event.data.blogId)),
  onEvent('blog.updated', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverUpdated(ctx, event.data.blogId, event.at)),
  onEvent('blog.withdrawn', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverWithdrawn(ctx, event.data.blogId, event.data.ownerId, event.at)),
  onEvent('comment.posted', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverCommentPosted(ctx, event.data.commentId)),
  // Shown again after a hide or a removal: sent again as it was first (outgoingComment decides).
  onEvent('comment.shown', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverCommentPosted(ctx, event.data.commentId, event.at)),
  onEvent('comment.edited', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverCommentEdited(ctx, event.data.commentId, event.at)),
  onEvent('comment.withdrawn', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverCommentWithdrawn(ctx, event.data, event.at)),
  onEvent('account.renamed', 'federation', async (ctx, event) => {
    const site = federationOf(ctx);
    if (site && (await moveHandleToName(ctx, event.data.userId, site.settings.siteName))) await (await delivery(ctx))?.deliverActorUpdated(ctx, event.data.userId, event.at);
  }),
  onEvent('account.suspended', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverSuspended(ctx, event.data.userId, event.at)),
  // A block (blockRemote drops the blocked side's followers of our writers at once) also ends our readers' follows of it (docs/decisions/089).
  onEvent('moderation.decided', 'federation', async (ctx, event) => {
    const { action, targetType, targetId } = event.data;
    if (action === 'block' && (targetType === 'remote_account' || targetType === 'instance')) await endFollowsOfBlocked(ctx, { kind: targetType === 'instance' ? 'instance' : 'account', target: targetId });
  }),
  // Retried while the account's comment Deletes wait in the queue: they need its keys (docs/decisions/088).
  onEvent('account.deleted', 'federation', async (ctx, event) => (await delivery(ctx))?.deliverAccountDeleted(ctx, event.data.userId, event.data.postIds, event.at), { maxAttempts: 12 }),
];

const MINUTE = 60_000;

export function federationTasks() {
  return [
    // Every writer can be found by handle, including those who signed up before federation was on.
    definePeriodic({
      name: 'federation-handles',
      everyMs: 10 * MINUTE,
      run: async (ctx) => {
        const site = federationOf(ctx);
        if (site) await assignMissingHandles(ctx, site.settings.siteName);
      },
    }),
    // Followed accounts' posts are kept for a while, the newest of each (docs/decisions/081).
    definePeriodic({ name: 'federation-remote-posts', everyMs: 60 * MINUTE, run: async (ctx, { start }) => void (await pruneRemotePosts(ctx, start)) }),
  ];
}
