import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export interface SecurityOptions {
  https: boolean;
  /** Extra origins images may come from (the S3 public URL). */
  imageOrigins: string[];
  dev: boolean;
}

/**
 * Headers every response carries (issue 2, 7): a nonce CSP (no inline script without the
 * nonce), nosniff, a strict referrer policy and no framing. The nonce is handed to React Router
 * through the load context so its scripts (and our theme script) carry it.
 */
export function securityHeaders(options: SecurityOptions): MiddlewareHandler<{ Variables: { nonce: string } }> {
  const img = ["'self'", 'data:', 'blob:', ...options.imageOrigins].join(' ');
  return async (c, next) => {
    const nonce = randomBytes(16).toString('base64');
    c.set('nonce', nonce);
    await next();
    const csp = [
      "default-src 'self'",
      `script-src 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      `img-src ${img}`,
      "font-src 'self'",
      `connect-src 'self'${options.dev ? ' ws: wss:' : ''}`,
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "manifest-src 'self'",
      ...(options.https ? ['upgrade-insecure-requests'] : []),
    ].join('; ');
    const h = c.res.headers;
    // A response with its own policy (better-auth's sign-in popup page, pinned by hash) keeps it.
    if (!h.has('Content-Security-Policy')) h.set('Content-Security-Policy', csp);
    h.set('X-Content-Type-Options', 'nosniff');
    h.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    h.set('X-Frame-Options', 'DENY');
    if (!h.has('Cross-Origin-Opener-Policy')) h.set('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
    h.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()');
    if (options.https) h.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    h.delete('X-Powered-By');
  };
}
