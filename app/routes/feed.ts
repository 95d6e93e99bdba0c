import { data } from 'react-router';
import { buildFeed, categoryFromSlug, type FeedScope } from '~/features/feeds/feeds.service.server';
import { ownImageBases } from '~/features/images/images.service.server';
import { getTag } from '~/features/tags/tags.service.server';
import { getAuthor } from '~/features/users/users.service.server';
import { errorPage } from '~/lib/page/page-errors.server';
import { siteBaseUrl } from '~/lib/page/site-url.server';
import type { Route } from './+types/feed';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists-without-counts' } satisfies CachedRead;

const TYPES = { atom: 'application/atom+xml; charset=utf-8', rss: 'application/rss+xml; charset=utf-8' };

/** Whose feed the address asks for; a 404 for an unknown category or writer. */
async function scopeOf(context: Route.LoaderArgs['context'], params: Route.LoaderArgs['params']): Promise<FeedScope> {
  if ('category' in params && params.category !== undefined) {
    const category = categoryFromSlug(params.category);
    if (!category) throw data(null, { status: 404 });
    return { category };
  }
  if ('tag' in params && params.tag !== undefined) {
    try {
      return { tag: await getTag(context.service, params.tag) };
    } catch (error) {
      errorPage(error);
    }
  }
  if ('id' in params && params.id !== undefined) {
    try {
      const { id, name } = await getAuthor(context.service, params.id);
      return { author: { id, name } };
    } catch (error) {
      errorPage(error);
    }
  }
  return {};
}

/** /feed.xml (Atom), /rss.xml (RSS 2.0), and their twins per category (/categories/{slug}/), per writer (/authors/{id}/) and per tag (/tags/{tag}/). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const format = new URL(request.url).pathname.endsWith('/rss.xml') ? 'rss' : 'atom';
  const body = await buildFeed(
    context.service,
    { baseUrl: siteBaseUrl(context.deps.config.PUBLIC_URL, request), siteName: context.deps.config.SITE_NAME, imageBases: ownImageBases(context.deps.config), fullContent: context.deps.config.FEED_FULL_CONTENT === 'on' },
    { format, ...(await scopeOf(context, params)) },
  );
  return new Response(body, { headers: { 'Content-Type': TYPES[format], 'Cache-Control': 'public, max-age=300' } });
}
