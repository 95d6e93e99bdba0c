import { Hono } from 'hono';
import { MESSAGES } from '~/lib/messages';
import type { AppDeps, AppVariables } from '../context.server';
import { AUTH_RATE_LIMITS, rateLimit, type RateLimitRule } from '../middleware/rate-limit.server';
import { docsApi } from './docs.api.server';
import { apiErrorHandler } from './errors.server';
import { parseJsonBody } from './http.server';
import { usersApi } from './users.api.server';
import { subscribersApi } from './subscribers.api.server';
import { wishlistApi } from './wishlist.api.server';
import { blogsApi } from './blogs.api.server';
import { imagesApi } from './images.api.server';
import { moderationApi } from './moderation.api.server';
import { commentsApi } from './comments.api.server';

/** better-auth's two-factor endpoints that check a password or a code: one shared counter. */
export const TWO_FACTOR_ENDPOINTS = ['enable', 'disable', 'verify-totp', 'verify-backup-code', 'get-totp-uri', 'generate-backup-codes'] as const;

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
  // Answers that carry a credential (a session or bearer token, a TOTP secret, recovery codes)
  // must not be kept by any cache, shared or the browser's own.
  for (const path of ['/auth/*', '/jwt', '/users/jwt']) {
    api.use(path, async (c, next) => {
      await next();
      c.header('Cache-Control', 'no-store');
    });
  }
  const limit = (rule: RateLimitRule) => rateLimit({ store: deps.rateLimits, log: deps.log, ...rule });
  api.post('/auth/sign-in/email', limit(AUTH_RATE_LIMITS.signIn));
  api.post('/auth/sign-up/email', limit(AUTH_RATE_LIMITS.signUp));
  api.post('/auth/request-password-reset', limit(AUTH_RATE_LIMITS.resetRequest));
  api.post('/auth/reset-password', limit(AUTH_RATE_LIMITS.reset));
  for (const step of TWO_FACTOR_ENDPOINTS) api.post(`/auth/two-factor/${step}`, limit(AUTH_RATE_LIMITS.twoFactor));
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
  api.route('/', usersApi(deps));
  api.route('/', wishlistApi(deps));
  api.route('/', blogsApi(deps));
  api.route('/', imagesApi(deps));
  api.route('/', subscribersApi(deps));
  api.route('/', moderationApi(deps));
  api.route('/', commentsApi(deps));
  api.route('/', docsApi(deps));

  return api;
}
