import { Hono } from 'hono';
import { SUBSCRIBE_RATE_LIMIT, SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { subscribe } from '~/features/newsletter/newsletter.service.server';
import { type AppDeps, type AppVariables, serviceContext } from '../context.server';
import { rateLimit } from '../middleware/rate-limit.server';
import { parseInput, readJson } from './http.server';

/** Spec §7 POST /subscribers: `{ message }`, or a 409 with a message when already subscribed. */
export function subscribersApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  api.post('/subscribers', rateLimit({ store: deps.rateLimits, log: deps.log, ...SUBSCRIBE_RATE_LIMIT }), async (c) => {
    const input = parseInput(SubscribeSchema, readJson(c));
    const { message } = await subscribe(serviceContext(deps, c.get('user')), input);
    return c.json({ message }, 201);
  });
  return api;
}
