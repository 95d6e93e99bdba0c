import { Feed } from 'feed';
import { BodyUnrenderable, listAuthorBlogs, listBlogs, renderMarkdown } from '~/features/blogs/blogs.service.server';
import { BLOG_CATEGORIES, type BlogCategory } from '~/features/blogs/blogs.schema';
import { ownPhoto } from '~/features/images/images.service.server';
import { blogPath } from '~/features/blogs/blog-path';
import { tagPath } from '~/features/tags/tag-path';
import type { ServiceContext } from '~/lib/core/service-context';

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

/** Where a writer's own feeds live, beside their page (docs/decisions/031). */
export const authorFeedPath = (authorId: string, format: 'atom' | 'rss') => `/authors/${authorId}/${format === 'atom' ? 'feed.xml' : 'rss.xml'}`;

/** Whose blogs a feed carries: the whole site, one category, one writer, or one tag (docs/decisions/069). */
export type FeedScope = { category?: BlogCategory; author?: { id: string; name: string }; tag?: { key: string; name: string } };

/**
 * A post's body as a feed item's content: the site's sanitised HTML with addresses made absolute
 * (a reader app has no page to resolve them against), and an embed's placeholder left as its link
 * and title (its button needs the page's script). Null when the body cannot be rendered now: the
 * item then carries its summary alone.
 */
async function feedContent(markdown: string, baseUrl: string, imageBases: readonly string[]): Promise<string | null> {
  let html: string;
  try {
    html = await renderMarkdown(markdown, { imageBases });
  } catch (error) {
    if (error instanceof BodyUnrenderable) return null;
    throw error;
  }
  const absolute = (url: string) => (url.startsWith('/') && !url.startsWith('//') ? `${baseUrl}${url}` : url);
  return html
    .replace(/<p class="embed-note">[\s\S]*?<\/p>/g, '')
    .replace(/<button\b[\s\S]*?<\/button>/g, '')
    .replace(/\s(src|href)="([^"]*)"/g, (_, name: string, url: string) => ` ${name}="${absolute(url)}"`)
    .replace(/\ssrcset="([^"]*)"/g, (_, set: string) => ` srcset="${set.split(',').map((part) => part.trim().replace(/^\S+/, absolute)).join(', ')}"`);
}

/**
 * The latest public blogs (of the whole site, a category or one writer) as an Atom 1.0 or RSS
 * 2.0 document. Feeds are public by nature, so they are built as an anonymous visitor sees the
 * site: Hidden blogs can never appear, not even in their writer's own feed, nor the
 * blogs of an account still on its spam hold (docs/decisions/029).
 */
export async function buildFeed(
  ctx: ServiceContext,
  /**
   * `imageBases`: where our own images are answered (`ownImageBases`); an item's picture is shown
   * only from there. `fullContent`: items carry the whole post (FEED_FULL_CONTENT, docs/decisions/066).
   */
  site: FeedSite & { imageBases: readonly string[]; fullContent?: boolean },
  options: { format: 'atom' | 'rss' } & FeedScope,
): Promise<string> {
  const anonymous: ServiceContext = { ...ctx, user: null };
  const { category, author, tag } = options;
  const blogs = author
    ? (await listAuthorBlogs(anonymous, author.id, { indexable: true })).slice(0, FEED_ITEMS)
    : (await listBlogs(anonymous, { page: 1, limit: FEED_ITEMS, search: category, tag: tag?.key, indexable: true })).blogs;
  const suffix = author ? `/authors/${author.id}` : tag ? tagPath(tag.name) : category ? `/categories/${categorySlug(category)}` : '';
  const self = `${site.baseUrl}${suffix}/${options.format === 'atom' ? 'feed.xml' : 'rss.xml'}`;
  const feed = new Feed({
    id: `${site.baseUrl}${suffix || '/'}`,
    title: author ? `${site.siteName}: ${author.name}` : tag ? `${site.siteName}: #${tag.name}` : category ? `${site.siteName}: ${category}` : site.siteName,
    description: author ? `The newest blogs by ${author.name}.` : tag ? `The newest blogs tagged ${tag.name}.` : 'Read and share blogs of every kind: travel tales, tech tips and more.',
    link: author ? `${site.baseUrl}/authors/${author.id}` : tag ? `${site.baseUrl}${tagPath(tag.name)}` : `${site.baseUrl}/allblogs${category ? `?category=${encodeURIComponent(category)}` : ''}`,
    language: 'en',
    favicon: `${site.baseUrl}/favicon.svg`,
    copyright: `© ${new Date().getFullYear()} ${site.siteName}`,
    updated: blogs[0] ? new Date(blogs[0].createdAt) : new Date(0),
    feedLinks: { [options.format]: self },
    generator: site.siteName,
  });
  for (const blog of blogs) {
    const url = `${site.baseUrl}${blogPath(blog)}`;
    // A photo from another address is left out: a feed reader would fetch it for every reader (decision 050).
    const photo = ownPhoto(blog.photo, site.imageBases);
    const content = site.fullContent ? await feedContent(blog.long_description, site.baseUrl, site.imageBases) : null;
    feed.addItem({
      id: url,
      link: url,
      title: blog.title,
      description: blog.short_description,
      ...(content ? { content } : {}),
      date: new Date(blog.createdAt),
      author: [{ name: blog.name }],
      category: [{ name: blog.category, term: blog.category }, ...blog.tags.map((name) => ({ name, term: name, domain: `${site.baseUrl}${tagPath(name)}` }))],
      ...(photo ? { image: photo.startsWith('/') ? `${site.baseUrl}${photo}` : photo } : {}),
    });
  }
  return options.format === 'atom' ? feed.atom1() : feed.rss2();
}
