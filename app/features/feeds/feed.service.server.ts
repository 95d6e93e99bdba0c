import { Feed } from 'feed';
import { listBlogs } from '~/features/blogs/blog.service.server';
import { BLOG_CATEGORIES, type BlogCategory } from '~/features/blogs/blog.schema';
import type { ServiceContext } from '~/lib/service-context';

export const FEED_ITEMS = 20;

export interface FeedSite {
  /** The site's absolute base URL (PUBLIC_URL, or the request's origin). */
  baseUrl: string;
  siteName: string;
}

/** A category's URL-safe name: 'DIY & Craft Blogs' → 'diy-craft-blogs'. */
export const categorySlug = (category: string) =>
  category
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const categoryFromSlug = (slug: string): BlogCategory | undefined => BLOG_CATEGORIES.find((c) => categorySlug(c) === slug);

/**
 * The latest public blogs as an Atom 1.0 or RSS 2.0 document. Feeds are public by nature, so
 * they are built as an anonymous visitor sees the site: Hidden blogs can never appear.
 */
export async function buildFeed(
  ctx: ServiceContext,
  site: FeedSite,
  options: { format: 'atom' | 'rss'; category?: BlogCategory },
): Promise<string> {
  const anonymous: ServiceContext = { ...ctx, user: null };
  const { blogs } = await listBlogs(anonymous, { page: 1, limit: FEED_ITEMS, search: options.category });
  const suffix = options.category ? `/categories/${categorySlug(options.category)}` : '';
  const self = `${site.baseUrl}${suffix}/${options.format === 'atom' ? 'feed.xml' : 'rss.xml'}`;
  const feed = new Feed({
    id: `${site.baseUrl}${suffix || '/'}`,
    title: options.category ? `${site.siteName}: ${options.category}` : site.siteName,
    description: 'Read and share blogs of every kind: travel tales, tech tips and more.',
    link: `${site.baseUrl}/allblogs${options.category ? `?category=${encodeURIComponent(options.category)}` : ''}`,
    language: 'en',
    favicon: `${site.baseUrl}/favicon.svg`,
    copyright: `© ${new Date().getFullYear()} ${site.siteName}`,
    updated: blogs[0] ? new Date(blogs[0].createdAt) : new Date(0),
    feedLinks: { [options.format]: self },
    generator: site.siteName,
  });
  for (const blog of blogs) {
    const url = `${site.baseUrl}/blogs/${blog._id}`;
    feed.addItem({
      id: url,
      link: url,
      title: blog.title,
      description: blog.short_description,
      date: new Date(blog.createdAt),
      author: [{ name: blog.name }],
      category: [{ name: blog.category, term: blog.category }],
      ...(blog.photo ? { image: blog.photo.startsWith('/') ? `${site.baseUrl}${blog.photo}` : blog.photo } : {}),
    });
  }
  return options.format === 'atom' ? feed.atom1() : feed.rss2();
}
