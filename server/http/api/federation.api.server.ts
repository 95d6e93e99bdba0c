import { z } from 'zod';
import { FollowRemoteSchema, ReplyRemoteSchema } from '~/features/federation/remote-following.schema';
import { followRemoteAccount, listRemoteFollowing, replyToRemotePost, unfollowRemoteAccount } from '~/features/federation/remote-following.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, DeletedResponse, denied, InsertedResponse, MessageResponse } from './responses.server';

const text = z.string();
const RemoteFollowResponse = z.strictObject({
  id: text,
  handle: text.describe('`@name@server`'),
  name: text.nullable(),
  actorUri: text,
  profileUrl: text.nullable(),
  avatarUrl: text.nullable(),
  state: z.enum(['pending', 'accepted']).describe('`pending` until the account’s server accepts the Follow'),
  since: text,
});

/** Following accounts on other servers from here (docs/decisions/081); the rules are the service's. */
export const FEDERATION_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'get', path: '/api/following/remote', tag: 'Fediverse', auth: 'required', summary: 'The accounts on other servers the caller follows, newest first', responses: { 200: { description: 'Followed accounts', schema: RemoteFollowResponse, list: true }, 401: denied[401] } },
    async ({ c, ctx }) => c.json(await listRemoteFollowing(ctx)),
  ),
  defineOperation(
    { method: 'post', path: '/api/following/remote', limit: RATE_LIMITS.remoteFollow, tag: 'Fediverse', auth: 'required', summary: 'Follow an account on another server by its handle (`@name@server`) or profile address: a Follow goes from the caller’s actor; pending until accepted', body: FollowRemoteSchema, responses: { 201: { description: 'Followed (or already followed)', schema: RemoteFollowResponse }, ...denied, ...bad, 404: { description: 'No account answers there', schema: MessageResponse }, 429: { description: 'Too many follows', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json((await followRemoteAccount(ctx, body)).follow, 201),
  ),
  defineOperation(
    { method: 'delete', path: '/api/following/remote/{id}', tag: 'Fediverse', auth: 'required', summary: 'Stop following an account on another server (an Undo of the Follow goes there)', responses: { 200: { description: 'Unfollowed', schema: DeletedResponse }, ...denied, 404: { description: 'Not followed', schema: MessageResponse } } },
    async ({ c, ctx, params }) => c.json(await unfollowRemoteAccount(ctx, params.id)),
  ),
  defineOperation(
    { method: 'post', path: '/api/following/replies', limit: RATE_LIMITS.comment, tag: 'Fediverse', auth: 'required', summary: 'Reply to a post of an account the caller follows on another server: a Note in reply, from the caller’s actor, to its author', body: ReplyRemoteSchema, responses: { 201: { description: 'Sent', schema: InsertedResponse }, ...denied, ...bad, 404: { description: 'No such post among those the caller follows', schema: MessageResponse }, 429: { description: 'Too many replies', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json(await replyToRemotePost(ctx, body), 201),
  ),
];
