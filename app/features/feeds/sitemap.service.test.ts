import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { buildSitemap, SITEMAP_MAX_URLS, SITEMAP_STATIC_PATHS } from './sitemap.service.server';

const site = { baseUrl: 'https://blog.example.org', siteName: 'Afterglow' };
const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });

/** A sitemap file parsed: its URLs, or the files of an index. */
function parse(xml: string | null) {
  expect(xml).not.toBeNull();
  expect(XMLValidator.validate(xml!)).toBe(true);
  const doc = parser.parse(xml!) as {
    urlset?: { '@_xmlns'?: string; url: { loc: string; lastmod?: string }[] };
    sitemapindex?: { sitemap: { loc: string }[] };
  };
  return { urls: doc.urlset?.url.map((u) => u.loc) ?? [], lastmods: doc.urlset?.url.map((u) => u.lastmod) ?? [], files: doc.sitemapindex?.sitemap.map((s) => s.loc) ?? [] };
}

describeOnDialects('sitemap on %s', (t) => {
  const publicIds: string[] = [];
  let hiddenId = '';
  beforeAll(async () => {
    const writer = await t.createUser();
    // Blog i is written at minute i, however often the write reads the clock.
    const at = (minute: number) => ({ ...t.context(writer.user), now: () => new Date(Date.UTC(2026, 10, 1, 0, minute)) });
    const blog = { category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', photo: '/uploads/a.webp' } as const;
    for (let i = 0; i < 5; i++) publicIds.push((await createBlog(at(i), { ...blog, title: `Public ${i}`, availability: 'Public' })).insertedId);
    hiddenId = (await createBlog(at(5), { ...blog, title: 'Draft', availability: 'Hidden' })).insertedId;
  });

  it('lists the static pages and every public blog, never a hidden one, in one file under the limit', async () => {
    // Built for the hidden draft's owner: a sitemap is what everybody sees.
    const { urls, lastmods, files } = parse(await buildSitemap(t.context(null), site));
    expect(files).toEqual([]);
    expect(urls).toEqual([...SITEMAP_STATIC_PATHS.map((p) => site.baseUrl + p), ...publicIds.map((id, i) => `${site.baseUrl}/blogs/${id}/public-${i}`)]);
    expect(urls).toContain('https://blog.example.org/allblogs?category=DIY+%26+Craft+Blogs');
    expect(urls.join()).not.toContain(hiddenId);
    expect(lastmods.at(-1)).toBe('2026-11-01T00:04:00.000Z');
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(await buildSitemap(t.context(null), site, { file: 1 })).toBeNull();
  });

  it('becomes an index of files past the per-file limit, each file within it, together listing everything once', async () => {
    const perFile = 4;
    const { files } = parse(await buildSitemap(t.context(null), site, { perFile }));
    const total = SITEMAP_STATIC_PATHS.length + publicIds.length;
    expect(files).toEqual(Array.from({ length: Math.ceil(total / perFile) }, (_, i) => `${site.baseUrl}/sitemaps/${i + 1}.xml`));
    const all: string[] = [];
    for (let file = 1; file <= files.length; file++) {
      const { urls } = parse(await buildSitemap(t.context(null), site, { perFile, file }));
      expect(urls.length).toBeGreaterThan(0);
      expect(urls.length).toBeLessThanOrEqual(perFile);
      all.push(...urls);
    }
    expect(all).toEqual([...SITEMAP_STATIC_PATHS.map((p) => site.baseUrl + p), ...publicIds.map((id, i) => `${site.baseUrl}/blogs/${id}/public-${i}`)]);
    expect(await buildSitemap(t.context(null), site, { perFile, file: files.length + 1 })).toBeNull();
    expect(await buildSitemap(t.context(null), site, { perFile, file: 0 })).toBeNull();
  });
});
