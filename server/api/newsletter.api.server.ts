import type { SubscribeInput } from '~/features/newsletter/newsletter.schema';
import { subscribe } from '~/features/newsletter/newsletter.service.server';
import type { Handlers } from './endpoints.server';

/** POST /subscribers (docs/product.md#the-api): `{ message }`, or a 409 with a message when already subscribed. */
export const SUBSCRIBER_HANDLERS: Handlers = {
  'post /api/subscribers': async ({ c, ctx, body }) => c.json({ message: (await subscribe(ctx, body as SubscribeInput)).message }, 201),
};
