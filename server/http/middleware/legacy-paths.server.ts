import type { MiddlewareHandler } from 'hono';
import { legacyRedirect } from '~/features/imports/imports.service.server';
import type { AppDeps } from '../../context.server';
import { serviceContext } from '../../context.server';

/**
 * Old links of imported posts keep working (docs/decisions/072): a page GET that would answer 404
 * is looked up once in `legacy_paths` and answered with a 301 to the post instead. Paths the site
 * answers cost nothing; only a 404 pays one indexed read.
 */
export function legacyPaths(deps: AppDeps): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 404 || (c.req.method !== 'GET' && c.req.method !== 'HEAD') || c.req.path.startsWith('/api/')) return;
    const target = await legacyRedirect(serviceContext(deps, null), new URL(c.req.url).pathname);
    if (target) c.res = new Response(null, { status: 301, headers: { location: target, 'cache-control': 'public, max-age=3600' } });
  };
}
