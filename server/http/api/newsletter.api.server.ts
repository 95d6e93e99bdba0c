import { SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { subscribe } from '~/features/newsletter/newsletter.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineOperation, type Operation } from './endpoints.server';
import { bad, MessageResponse, SubscribedResponse } from './responses.server';

/** POST /subscribers (docs/product.md#the-api): `{ message }`, or a 409 with a message when already subscribed. */
export const SUBSCRIBER_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'post', path: '/api/subscribers', limit: RATE_LIMITS.subscribe, tag: 'Newsletter', auth: 'none', summary: 'Subscribe an email to the newsletter', body: SubscribeSchema, responses: { 201: { description: 'Subscribed', schema: SubscribedResponse }, ...bad, 409: { description: 'Already subscribed', schema: MessageResponse } } },
    async ({ c, ctx, body }) => c.json({ message: (await subscribe(ctx, body)).message }, 201),
  ),
];
