import { data } from 'react-router';
import { buildSitemap } from '~/features/feeds/sitemap.service.server';
import { siteBaseUrl } from '~/lib/page/site-url.server';
import type { Route } from './+types/sitemap';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists-without-counts' } satisfies CachedRead;

/** /sitemap.xml, and /sitemaps/{n}.xml once it has become an index. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  let file: number | undefined;
  if (params.file !== undefined) {
    const match = /^([1-9]\d{0,5})\.xml$/.exec(params.file);
    if (!match) throw data(null, { status: 404 });
    file = Number(match[1]);
  }
  const site = { baseUrl: siteBaseUrl(context.deps.config.PUBLIC_URL, request), siteName: context.deps.config.SITE_NAME };
  const body = await buildSitemap(context.service, site, { file });
  if (body === null) throw data(null, { status: 404 });
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
