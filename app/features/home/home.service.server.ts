import { toCard } from '~/features/blogs/blogs.presenter';
import { countPublicBlogsAndWriters, listRecentBlogs } from '~/features/blogs/blogs.service.server';
import { countSubscribers } from '~/features/newsletter/newsletter.service.server';
import { countMembers } from '~/features/users/users.service.server';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import { keptFor } from '~/lib/render/caches.server';
import type { ServiceContext } from '~/lib/core/service-context';
import type { RecentBlogCard } from './components/recent-blogs';
import { type AchievementsSetting, type Figure, siteFigures } from './site-figures';

/**
 * The achievements (docs/product.md#achievements): the fixed figures as set (the product's by default), or, when the
 * operator chose `counted`, the site's own counts (docs/decisions/031, 051). Always four.
 */
export async function loadSiteFigures(ctx: ServiceContext, setting: AchievementsSetting): Promise<Figure[]> {
  if (setting.kind === 'fixed') return setting.figures;
  // Kept up to 30 s (the `site_figures` cache, as old as counts on kept pages, decision 024); an
  // empty site is counted every time, so the first blog shows at once.
  const counted = await keptFor('site_figures', ctx.db, '', ctx.now().getTime(), async () => {
    const [{ blogs, writers }, members, subscribers] = await Promise.all([countPublicBlogsAndWriters(ctx), countMembers(ctx), countSubscribers(ctx)]);
    return { blogs, figures: siteFigures({ blogs, writers, members, subscribers }) };
  }, (figures) => figures.blogs > 0);
  return counted.figures;
}

/** What the Recent Blogs grid needs: the cards, and which of them the viewer already keeps. */
export async function loadRecentBlogsSection(ctx: ServiceContext): Promise<{ blogs: RecentBlogCard[]; wishlistIds: string[] }> {
  const [blogs, saved] = await Promise.all([listRecentBlogs(ctx), listWishlistBlogIds(ctx)]);
  const shown = new Set(blogs.map((b) => b._id));
  return {
    blogs: blogs.map(toCard).map(({ _id, title, photo, photo_position, category, short_description, createdAt, name, readingTime }) => ({ _id, title, photo, photo_position, category, short_description, createdAt, name, readingTime })),
    wishlistIds: saved.filter((id) => shown.has(id)),
  };
}
