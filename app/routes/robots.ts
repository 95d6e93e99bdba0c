import { siteBaseUrl } from '~/lib/page/site-url.server';
import type { Route } from './+types/robots';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists-without-counts' } satisfies CachedRead;

/** Crawlers may read every public page; private screens and the API are not for them. */
export function loader({ request, context }: Route.LoaderArgs) {
  const base = siteBaseUrl(context.deps.config.PUBLIC_URL, request);
  const body = [
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /addBlog',
    'Disallow: /updateBlog/',
    'Disallow: /wishList',
    'Disallow: /wishlist',
    'Disallow: /profile',
    'Disallow: /update-profile',
    'Disallow: /login',
    'Disallow: /register',
    '',
    `Sitemap: ${base}/sitemap.xml`,
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
