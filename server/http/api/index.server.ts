import { Hono } from 'hono';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { AppDeps, AppEnv } from '../../context.server';
import { AUTH_ENDPOINT_LIMITS, clientRulesOf } from '~/lib/core/rate-limits';
import { rateLimit } from '../middleware/rate-limit.server';
import { docsApi } from './docs.api.server';
import { apiErrorHandler } from './errors.server';
import { parseJsonBody } from './handlers.server';
import { mountOperations } from './endpoints.server';
import { OPERATIONS } from './operations.server';

/** Hands a request to better-auth with the client address we resolved (never the client's claim). */
function withClientIp(request: Request, ip: string): Request {
  const headers = new Headers(request.headers);
  headers.set('x-afterglow-client-ip', ip);
  return new Request(request, { headers });
}

/** The JSON API under /api (docs/product.md#the-api). Feature routers are mounted here. */
export function createApi(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.onError(apiErrorHandler(deps.log));
  api.notFound((c) => c.json({ message: MESSAGES.apiNotFound }, 404));

  api.use(parseJsonBody());
  // Answers that carry a credential (a session or bearer token, a TOTP secret, recovery codes)
  // must not be kept by any cache, shared or the browser's own.
  for (const path of ['/auth/*', '/jwt', '/users/jwt']) {
    api.use(path, async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });
  }
  // better-auth's endpoints that need a session get the declared sign-in check first (their own
  // order validates the body before looking at the session, and sign-out answers 200 to anyone).
  for (const op of OPERATIONS) {
    if (!op.path.startsWith('/api/auth/') || op.auth !== 'required') continue;
    api.on(op.method.toUpperCase(), op.path.slice('/api'.length), async (c, next) => {
      if (!c.get('user')) throw new AppError('unauthenticated', MESSAGES.authRequired);
      await next();
    });
  }
  // better-auth's endpoints are counted by path, before it reads the body (the page forms count
  // the same rules through the auth port; the per-account ones inside better-auth).
  for (const path of Object.keys(AUTH_ENDPOINT_LIMITS)) {
    for (const rule of clientRulesOf(path)) api.post(`/auth${path}`, rateLimit({ store: deps.rateLimits, log: deps.log, ...rule }));
  }
  api.on(['GET', 'POST'], '/auth/*', async (c) => {
    const response = await deps.auth.handler(withClientIp(c.req.raw, c.get('clientIp')));
    // The sign-in popup's last page posts to window.opener: a stricter opener policy on it
    // would cut the popup off from the page that opened it.
    if (!c.req.path.includes('/callback/')) return response;
    // A new Response rather than headers.set(): the Node adapter may send a response's
    // original headers and drop ones set on it afterwards.
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'unsafe-none');
    return new Response(response.body, { status: response.status, headers });
  });
  // Every other /api route is an operation defined with its policy and handler (docs/decisions/056).
  mountOperations(api, deps, OPERATIONS);
  api.route('/', docsApi(deps));

  return api;
}
