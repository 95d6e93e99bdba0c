import { listRecentBlogs } from '~/features/blogs/blog.service.server';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import type { ServiceContext } from '~/lib/service-context';
import type { RecentBlogCard } from './components/recent-blogs';

/** What the Recent Blogs grid needs: the cards, and which of them the viewer already keeps. */
export async function loadRecentBlogsSection(ctx: ServiceContext): Promise<{ blogs: RecentBlogCard[]; wishlistIds: string[] }> {
  const [blogs, saved] = await Promise.all([listRecentBlogs(ctx), listWishlistBlogIds(ctx)]);
  const shown = new Set(blogs.map((b) => b._id));
  return {
    blogs: blogs.map(({ _id, title, photo, category, short_description, createdAt, name }) => ({ _id, title, photo, category, short_description, createdAt, name })),
    wishlistIds: saved.filter((id) => shown.has(id)),
  };
}
