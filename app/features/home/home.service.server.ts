import { toCard } from '~/features/blogs/blogs.presenter';
import { countPublicBlogsAndWriters, listRecentBlogs } from '~/features/blogs/blogs.service.server';
import { countSubscribers } from '~/features/newsletter/newsletter.service.server';
import { countMembers } from '~/features/users/users.service.server';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import type { ServiceContext } from '~/lib/service-context';
import type { RecentBlogCard } from './components/recent-blogs';
import { type AchievementsSetting, type Figure, siteFigures } from './site-figures';

/**
 * How long counted figures may lag: the page cache already shows counts up to 30 s old (decision
 * 024), and signed-in home pages, which are never kept, must not run four counts per request.
 */
export const FIGURES_MAX_AGE_MS = 30_000;
const figuresMemo = new WeakMap<object, { at: number; blogs: number; figures: Figure[] }>();

/**
 * The achievements (docs/product.md#achievements): the fixed figures as set (the product's by default), or, when the
 * operator chose `counted`, the site's own counts (docs/decisions/031, 051). Always four.
 */
export async function loadSiteFigures(ctx: ServiceContext, setting: AchievementsSetting): Promise<Figure[]> {
  if (setting.kind === 'fixed') return setting.figures;
  const now = ctx.now().getTime();
  let memo = figuresMemo.get(ctx.db);
  // An empty site is counted every time, so the first blog shows at once.
  if (!memo || memo.blogs === 0 || now - memo.at > FIGURES_MAX_AGE_MS) {
    const [{ blogs, writers }, members, subscribers] = await Promise.all([countPublicBlogsAndWriters(ctx), countMembers(ctx), countSubscribers(ctx)]);
    figuresMemo.set(ctx.db, (memo = { at: now, blogs, figures: siteFigures({ blogs, writers, members, subscribers }) }));
  }
  return memo.figures;
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
