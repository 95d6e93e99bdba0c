import { data } from 'react-router';
import { buildFeed, categoryFromSlug } from '~/features/feeds/feed.service.server';
import { siteBaseUrl } from '~/lib/site-url.server';
import type { Route } from './+types/feed';

const TYPES = { atom: 'application/atom+xml; charset=utf-8', rss: 'application/rss+xml; charset=utf-8' };

/** /feed.xml (Atom), /rss.xml (RSS 2.0) and their per-category twins under /categories/{slug}/. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const format = new URL(request.url).pathname.endsWith('/rss.xml') ? 'rss' : 'atom';
  const category = params.category === undefined ? undefined : categoryFromSlug(params.category);
  if (params.category !== undefined && !category) throw data(null, { status: 404 });
  const body = await buildFeed(
    context.service,
    { baseUrl: siteBaseUrl(context.deps.config.PUBLIC_URL, request), siteName: context.deps.config.SITE_NAME },
    { format, category },
  );
  return new Response(body, { headers: { 'Content-Type': TYPES[format], 'Cache-Control': 'public, max-age=300' } });
}
