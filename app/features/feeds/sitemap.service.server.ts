import { BLOG_CATEGORIES } from '~/features/blogs/blogs.schema';
import { listPublicBlogRefs } from '~/features/blogs/blogs.service.server';
import { blogPathOf } from '~/features/blogs/blog-path';
import { tagPath } from '~/features/tags/tag-path';
import { listIndexableTags } from '~/features/tags/tags.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import type { FeedSite } from './feeds.service.server';

/** The sitemap protocol's limit of URLs per file; past it, /sitemap.xml becomes an index. */
export const SITEMAP_MAX_URLS = 50_000;

/** The public pages that are not blogs: the screens anyone may read, and each category's list. */
export const SITEMAP_STATIC_PATHS = [
  '/',
  '/allblogs',
  ...BLOG_CATEGORIES.map((c) => `/allblogs?${new URLSearchParams({ category: c })}`),
  '/featuredBlogs',
  '/recent',
  '/memoryframe',
  '/counter',
  '/newsletter',
];

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** Where file `n` of a sitemap index lives. */
export const sitemapFilePath = (n: number) => `/sitemaps/${n}.xml`;

/**
 * /sitemap.xml (`file` undefined) or one file of the index (`file` ≥ 1): the static pages first,
 * then every Public blog, `perFile` URLs a file (a parameter so tests can cross the limit with
 * a few blogs). Built as an anonymous visitor sees the site: a Hidden blog is never listed.
 * Null: no such file.
 */
export async function buildSitemap(
  ctx: ServiceContext,
  site: FeedSite,
  options: { file?: number; perFile?: number } = {},
): Promise<string | null> {
  const perFile = options.perFile ?? SITEMAP_MAX_URLS;
  // The pages that are not blogs: the static screens, then each tag's page (docs/decisions/069).
  const pages = [...SITEMAP_STATIC_PATHS, ...(await listIndexableTags(ctx)).map((tag) => tagPath(tag.name))];
  const statics = pages.length;
  const { total: blogCount } = await listPublicBlogRefs(ctx, { offset: 0, limit: 0 });
  const files = Math.max(1, Math.ceil((statics + blogCount) / perFile));
  if (options.file === undefined && files > 1) {
    const entries = Array.from({ length: files }, (_, i) => `<sitemap><loc>${xml(site.baseUrl + sitemapFilePath(i + 1))}</loc></sitemap>`);
    return `${HEAD}<sitemapindex ${NS}>\n${entries.join('\n')}\n</sitemapindex>\n`;
  }
  const file = options.file ?? 1;
  if (!Number.isInteger(file) || file < 1 || file > files || (options.file !== undefined && files === 1)) return null;

  const start = (file - 1) * perFile;
  const end = start + perFile;
  const urls = pages.slice(start, end).map((path) => `<url><loc>${xml(site.baseUrl + path)}</loc></url>`);
  const blogStart = Math.max(0, start - statics);
  const { refs } = await listPublicBlogRefs(ctx, { offset: blogStart, limit: Math.max(0, end - statics - blogStart) });
  for (const ref of refs) {
    urls.push(`<url><loc>${xml(`${site.baseUrl}${blogPathOf(ref)}`)}</loc><lastmod>${xml(ref.updatedAt)}</lastmod></url>`);
  }
  return `${HEAD}<urlset ${NS}>\n${urls.join('\n')}\n</urlset>\n`;
}
