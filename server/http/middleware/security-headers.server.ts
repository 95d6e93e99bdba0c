import { randomFillSync } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { PLAYER_ORIGINS } from '~/features/blogs/markdown-embeds';

export interface SecurityOptions {
  https: boolean;
  /** Extra origins images may come from (the S3 public URL). */
  imageOrigins: string[];
  dev: boolean;
}

/**
 * The one response that brings a stricter policy of its own: better-auth's oauth-popup "completing
 * sign-in" page, served by the provider callback (`GET /api/auth/callback/<id>`, or
 * `/api/auth/oauth2/callback/<id>`) with `default-src 'none'` and its inline script pinned by hash.
 * Our nonce policy would block that script and the popup would never report back. Any other own
 * policy is replaced by ours.
 */
const POPUP_CALLBACK = /^\/api\/auth\/(oauth2\/)?callback\/[\w-]+$/;
function keepsOwnPolicy(method: string, path: string, policy: string): boolean {
  return method === 'GET' && POPUP_CALLBACK.test(path) && /^default-src 'none';/.test(policy);
}

/** On https every cookie we set is Secure (the flash message's too, not only better-auth's). */
function secureCookies(h: Headers) {
  const cookies = h.getSetCookie();
  if (cookies.every((cookie) => /;\s*secure\b/i.test(cookie))) return;
  h.delete('Set-Cookie');
  for (const cookie of cookies) h.append('Set-Cookie', /;\s*secure\b/i.test(cookie) ? cookie : `${cookie}; Secure`);
}

/**
 * Headers every response carries (docs/decisions/005): a nonce CSP (no inline script without the
 * nonce), nosniff, a strict referrer policy and no framing. The nonce is handed to React Router
 * through the load context so its scripts (and our theme script) carry it.
 */
export function securityHeaders(options: SecurityOptions): MiddlewareHandler<{ Variables: { nonce: string; scriptSources?: string } }> {
  const policy = securityPolicy(options);
  return async (c, next) => {
    c.set('nonce', nextNonce());
    await next();
    // Read after the handler: a page sent from the page cache names its inline scripts' hashes
    // instead of a nonce, so no two answers share one (docs/decisions/019).
    const kept = c.get('scriptSources');
    const h = c.res.headers;
    const own = h.get('Content-Security-Policy');
    if (own && keepsOwnPolicy(c.req.method, c.req.path, own)) h.set('Content-Security-Policy', `${own}; frame-ancestors 'none'`);
    else h.set('Content-Security-Policy', kept === undefined ? policy.nonceCsp(c.get('nonce')) : policy.csp(kept));
    for (const [name, value] of policy.fixed) h.set(name, value);
    if (!h.has('Cross-Origin-Opener-Policy')) h.set('Cross-Origin-Opener-Policy', policy.openerPolicy);
    if (options.https) secureCookies(h);
    h.delete('X-Powered-By');
    // Hono answers HEAD with `new Response(null, <the GET answer>)`, and @hono/node-server's light
    // Response then keeps only the headers the handler first gave it: everything set above was
    // lost (HEAD /api/* had no nosniff). A response of our own carries them all.
    if (c.req.method === 'HEAD') c.res = new Response(null, { status: c.res.status, headers: h });
  };
}

/**
 * The policy's parts: the CSP for given script sources or a nonce, the headers every answer carries, and the
 * opener policy an answer gets unless it brings its own. Shared by the middleware and by the kept
 * pages answered before it runs (server/http/http.server.ts), so both send the same headers.
 */
export function securityPolicy(options: SecurityOptions) {
  const img = ["'self'", 'data:', 'blob:', ...options.imageOrigins].join(' ');
  const csp = (scriptSources: string) =>
    [
      "default-src 'self'",
      `script-src ${scriptSources}${options.dev ? " 'unsafe-eval'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      `img-src ${img}`,
      "font-src 'self'",
      // A body's video and audio placeholders load their player only on the reader's click; these
      // are the players it may load, and nothing else may be framed (docs/decisions/063).
      `frame-src ${PLAYER_ORIGINS.join(' ')}`,
      "media-src 'self' https:",
      `connect-src 'self'${options.dev ? ' ws: wss:' : ''}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "manifest-src 'self'",
      ...(options.https ? ['upgrade-insecure-requests'] : []),
    ].join('; ');
  const fixed: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()'],
    ...(options.https ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as [string, string]] : []),
  ];
  // The policy of a page not kept anonymously: built once, cut where its nonce goes.
  const [nonceHead, nonceTail] = csp('\0').split('\0') as [string, string];
  const nonceCsp = (nonce: string) => `${nonceHead}'nonce-${nonce}' 'strict-dynamic'${nonceTail}`;
  return { csp, nonceCsp, fixed, openerPolicy: 'same-origin-allow-popups' };
}

const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

/**
 * 128 random bits, base64. The system's random source is asked for 256 nonces at a time (as Node's
 * own `randomUUID` does): one call per request was 5% of a kept page's CPU (decision 039). Each
 * nonce is still fresh, unpredictable bytes, never reused.
 */
export function nextNonce(): string {
  if (nonceOffset === noncePool.length) {
    randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString('base64', nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}
