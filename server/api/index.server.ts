import { Hono } from 'hono';
import { MESSAGES } from '~/lib/messages';
import type { AppDeps, AppVariables } from '../context.server';
import { apiErrorHandler } from './errors.server';
import { parseJsonBody } from './http.server';

/** Hands a request to better-auth with the client address we resolved (never the client's claim). */
function withClientIp(request: Request, ip: string): Request {
  const headers = new Headers(request.headers);
  headers.set('x-afterglow-client-ip', ip);
  return new Request(request, { headers });
}

/** The JSON API under /api (BRIEF §2). Feature routers are mounted here. */
export function createApi(deps: AppDeps) {
  const api = new Hono<{ Variables: AppVariables }>();
  api.onError(apiErrorHandler(deps.log));
  api.notFound((c) => c.json({ message: MESSAGES.apiNotFound }, 404));

  api.use(parseJsonBody());
  api.on(['GET', 'POST'], '/auth/*', (c) => deps.auth.handler(withClientIp(c.req.raw, c.get('clientIp'))));

  return api;
}
