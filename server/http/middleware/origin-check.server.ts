import type { MiddlewareHandler } from 'hono';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a request may legitimately come from: PUBLIC_URL's, or else the request's own. */
export function expectedOrigin(requestUrl: string, publicUrl: string | undefined): string {
  return publicUrl ? new URL(publicUrl).origin : new URL(requestUrl).origin;
}

/**
 * CSRF defence for every state-changing request (pages' actions and /api alike): a browser
 * always sends Origin on cross-site POSTs, so a foreign Origin is refused outright, and a
 * cookie-bearing request must prove it is same-origin (Origin, or Sec-Fetch-Site). Requests
 * without cookies (bearer-token API clients) cannot carry ambient authority and pass.
 */
export function originCheck(publicUrl: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE.has(c.req.method)) return next();
    const expected = expectedOrigin(c.req.url, publicUrl);
    const origin = c.req.header('origin');
    const hasCookie = Boolean(c.req.header('cookie'));
    const fetchSite = c.req.header('sec-fetch-site');
    const refused =
      (origin !== undefined && origin !== expected) ||
      (origin === undefined && hasCookie && fetchSite !== 'same-origin') ||
      (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none');
    if (refused) return c.json({ message: 'Cross-site request refused.' }, 403);
    return next();
  };
}
