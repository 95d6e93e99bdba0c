import { RecentBlogs } from '~/features/home/components/recent-blogs';
import { loadRecentBlogsSection } from '~/features/home/home.service.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/recent';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `Recent Blogs · ${site.siteName}`, description: `The six newest blogs on ${site.siteName}.`, path: '/recent' });
};

export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: !!context.user, ...(await loadRecentBlogsSection(context.service)) };
}

/** The Recent Blogs section alone (docs/product.md#routes). */
export default function Recent({ loaderData }: Route.ComponentProps) {
  return <RecentBlogs blogs={loaderData.blogs} signedIn={loaderData.signedIn} wishlistIds={loaderData.wishlistIds} standalone />;
}
