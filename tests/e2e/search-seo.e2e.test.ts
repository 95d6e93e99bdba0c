import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser } from 'fast-xml-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import type { DialectName } from '~/db/schema';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';

const DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
const NASTY = ['"', '"unbalanced', 'sun*', '*', 'a NEAR b', 'NEAR(a b, 2)', '-sunset', '- -', 'title:x', ':', '((', '))', 'a OR', 'AND', "'", '%', '\\', '<script>alert(1)</script>', '\u0000', '😀 ñ 東京', 'x'.repeat(5000)];
const xml = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });

describe.each(DIALECTS)('search, feeds, sitemap and sharing tags on %s', (dialect) => {
  const server = useServer({}, dialect);
  const { open } = useBrowsers();
  const ids = { harbour: '', circuit: '', hidden: '', script: '', plankton: [] as string[] };
  let writerCookie: { name: string; value: string }[] = [];

  const cardTitles = (page: Browser['page']) => page.getByTestId('blog-card').locator('h2').allTextContents();

  beforeAll(async () => {
    const writer = await openBrowser();
    await signUp(writer.context, server.url, { name: 'Wren Writer' });
    const photo = await uploadPhoto(writer.context, server.url);
    const seed = (blog: Parameters<typeof seedBlog>[2]) => seedBlog(writer.context, server.url, blog);
    ids.harbour = await seed({
      title: 'Harbour lights',
      category: 'Travelling & Photography',
      short_description: 'A night walk by the water.',
      long_description: '## The bay\n\nAt midnight the waves glowed with **bioluminescence** while we walked.',
      photo,
    });
    ids.circuit = await seed({ title: 'Glowing circuits', category: 'Technology', long_description: 'LEDs that mimic bioluminescence in a jar.', photo });
    ids.hidden = await seed({ title: 'Private glow', availability: 'Hidden', long_description: 'My quokkaword bioluminescence notes.', photo });
    ids.script = await seed({ title: '</script><script>alert("title")</script>', category: 'Personal', short_description: '<img src=x onerror=alert(1)>', long_description: 'Script <b>xylophone</b> test', photo });
    for (let i = 0; i < 14; i++) ids.plankton.push(await seed({ title: `Plankton diary ${i}`, category: 'Education', long_description: `Day ${i}: the plankton bloomed.`, photo }));
    writerCookie = (await writer.context.cookies()).map(({ name, value }) => ({ name, value }));
    await writer.close();
  }, 120_000);

  it('finds a word only in a long description, with the category, and pages with q kept — without JavaScript', async () => {
    const { page } = await open({ javaScriptEnabled: false });
    await page.goto(`${server.url}/allblogs`);
    await page.getByLabel('Search', { exact: true }).fill('Bioluminescence');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${server.url}/allblogs?q=Bioluminescence&category=`);
    expect((await cardTitles(page)).sort()).toEqual(['Glowing circuits', 'Harbour lights']);
    const snippet = page.getByTestId('blog-card').filter({ hasText: 'Harbour lights' }).getByTestId('search-snippet');
    expect(await snippet.locator('mark').allTextContents()).toEqual(['bioluminescence']);
    expect(await snippet.textContent()).toContain('the waves glowed with bioluminescence while');
    expect(await snippet.textContent()).not.toContain('**');

    await page.getByLabel('Category').selectOption('Technology');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=Bioluminescence&category=Technology/);
    expect(await cardTitles(page)).toEqual(['Glowing circuits']);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('Bioluminescence');

    await page.goto(`${server.url}/allblogs?q=plankton`);
    expect(await page.getByTestId('blog-card').count()).toBe(12);
    const next = page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: '2', exact: true });
    expect(await next.getAttribute('href')).toBe('/allblogs?q=plankton&page=2');
    await next.click();
    await page.waitForURL(`${server.url}/allblogs?q=plankton&page=2`);
    expect(await page.getByTestId('blog-card').count()).toBe(2);
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('plankton');
    // Search result pages are not for crawlers; their canonical is the plain list.
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, follow');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(`${server.url}/allblogs?page=2`);
  });

  it('never finds another user’s Hidden blog, but its owner does', async () => {
    const { page, context } = await open({ javaScriptEnabled: false });
    await page.goto(`${server.url}/allblogs?q=quokkaword`);
    await page.getByText('No blogs found for “quokkaword”.').waitFor();
    await signUp(context, server.url);
    await page.reload();
    await page.getByText('No blogs found for “quokkaword”.').waitFor();
    const api = (await (await fetch(`${server.url}/api/blogs?q=quokkaword`)).json()) as unknown[];
    expect(api).toEqual([]);

    const owner = await open({ javaScriptEnabled: false });
    await owner.context.addCookies(writerCookie.map((c) => ({ ...c, url: server.url })));
    await owner.page.goto(`${server.url}/allblogs?q=quokkaword`);
    expect(await cardTitles(owner.page)).toEqual(['Private glow']);
  });

  it('answers any search text with a normal page (never a 500), and the API with 200 or a clear 400', async () => {
    for (const q of NASTY) {
      const page = await fetch(`${server.url}/allblogs?q=${encodeURIComponent(q)}`);
      expect(page.status, q.slice(0, 20)).toBe(200);
      expect(await page.text()).toContain('All blogs');
      const api = await fetch(`${server.url}/api/blogs?q=${encodeURIComponent(q)}`);
      expect(api.status, q.slice(0, 20)).toBe(q.length > 200 ? 400 : 200);
    }
    const res = await fetch(`${server.url}/api/blogs?q=plankton&limit=5&page=2`);
    expect(res.headers.get('X-Total-Count')).toBe('14');
    expect(res.headers.get('Link')).toContain('q=plankton');
  });

  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`searches with JavaScript on a ${width} (${colorScheme}): the field sits beside the dropdown, highlights pass axe`, async () => {
        const { page } = await open({ viewport, colorScheme });
        await page.goto(`${server.url}/allblogs`);
        await waitForHydration(page);
        await page.getByLabel('Search', { exact: true }).fill('waves bioluminescence');
        await page.getByLabel('Search', { exact: true }).press('Enter');
        await page.waitForURL(/q=waves\+bioluminescence/);
        await expect.poll(() => cardTitles(page)).toEqual(['Harbour lights']);
        const field = await page.getByLabel('Search', { exact: true }).boundingBox();
        const select = await page.getByLabel('Category').boundingBox();
        if (width === 'desktop') expect(Math.abs(field!.y - select!.y)).toBeLessThan(2);
        else expect(field!.y).toBeLessThan(select!.y);
        await screenshot(page, `search-${width}-${colorScheme}`);
        expect(await axeViolations(page)).toEqual([]);
      });
    }
  }

  it('puts canonical, Open Graph, Twitter and JSON-LD BlogPosting tags on a blog page, escaped', async () => {
    const { page } = await open();
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await page.goto(`${server.url}/blogs/${ids.harbour}`);
    await waitForHydration(page);
    const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute('content');
    // The canonical address is the readable one (docs/decisions/069).
    const url = `${server.url}/blogs/${ids.harbour}/harbour-lights`;
    expect(await page.title()).toBe('Harbour lights · Afterglow');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(url);
    expect(await meta('description')).toBe('A night walk by the water.');
    expect(await meta('og:type')).toBe('article');
    expect(await meta('og:title')).toBe('Harbour lights');
    expect(await meta('og:description')).toBe('A night walk by the water.');
    expect(await meta('og:url')).toBe(url);
    expect(await meta('og:image')).toMatch(new RegExp(`^${server.url}/uploads/.+\\.webp$`));
    expect((await fetch((await meta('og:image'))!)).status).toBe(200);
    expect(await meta('twitter:card')).toBe('summary_large_image');
    expect(await meta('twitter:title')).toBe('Harbour lights');
    expect(await meta('twitter:image')).toBe(await meta('og:image'));
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as Record<string, unknown>;
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: 'Harbour lights',
      description: 'A night walk by the water.',
      image: [await meta('og:image')],
      author: { '@type': 'Person', name: 'Wren Writer' },
      url,
      mainEntityOfPage: { '@id': url },
    });
    expect(ld.datePublished).toMatch(/^\d{4}-\d\d-\d\dT/);

    // A title that tries to close the JSON-LD script stays data.
    await page.goto(`${server.url}/blogs/${ids.script}`);
    await waitForHydration(page);
    const raw = await (await fetch(`${server.url}/blogs/${ids.script}`)).text();
    expect(raw).not.toContain('</script><script>alert("title")');
    const scripts = page.locator('script[type="application/ld+json"]');
    expect(await scripts.count()).toBe(1);
    expect((JSON.parse((await scripts.textContent())!) as { headline: string }).headline).toBe('</script><script>alert("title")</script>');
    expect(await meta('og:title')).toBe('</script><script>alert("title")</script>');
    expect(dialogs).toEqual([]);

    // The owner's Hidden draft is never offered to crawlers.
    const hidden = await fetch(`${server.url}/blogs/${ids.hidden}`);
    expect(hidden.status).toBe(404);
  });

  it('serves Atom, RSS and category feeds a real parser reads, with the right items and no Hidden blog', async () => {
    const read = async (path: string) => {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      return parseFeed(await res.text());
    };
    for (const path of ['/feed.xml', '/rss.xml']) {
      const feed = await read(path);
      expect(feed.meta.type).toBe(path === '/feed.xml' ? 'atom' : 'rss');
      const titles = feed.items.map((i) => i.title);
      expect(titles).toHaveLength(17);
      expect(titles[0]).toBe('Plankton diary 13');
      expect(titles).toContain('Harbour lights');
      expect(titles).not.toContain('Private glow');
      expect(feed.items.find((i) => i.title === 'Harbour lights')!.url).toBe(`${server.url}/blogs/${ids.harbour}/harbour-lights`);
    }
    const tech = await read('/categories/technology/feed.xml');
    expect(tech.items.map((i) => i.title)).toEqual(['Glowing circuits']);
    const travel = await read('/categories/travelling-photography/rss.xml');
    expect(travel.items.map((i) => i.title)).toEqual(['Harbour lights']);
    expect(travel.url).toBe(`${server.url}/allblogs?category=Travelling%20%26%20Photography`);
    expect((await fetch(`${server.url}/categories/gossip/feed.xml`)).status).toBe(404);
  });

  it('lists public blogs and the main pages in /sitemap.xml, which robots.txt names; no Hidden blog', async () => {
    const res = await fetch(`${server.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    const doc = xml.parse(await res.text()) as { urlset: { url: { loc: string; lastmod?: string }[] } };
    const locs = doc.urlset.url.map((u) => u.loc);
    for (const path of ['/', '/allblogs', '/featuredBlogs', '/allblogs?category=Technology']) expect(locs).toContain(`${server.url}${path}`);
    for (const id of [ids.harbour, ids.circuit, ids.script, ...ids.plankton]) expect(locs.filter((loc) => loc.startsWith(`${server.url}/blogs/${id}/`))).toHaveLength(1);
    expect(locs.join(' ')).not.toContain(ids.hidden);
    expect((await fetch(`${server.url}/sitemaps/1.xml`)).status).toBe(404);
    expect((await fetch(`${server.url}/sitemaps/x.xml`)).status).toBe(404);
    expect(await (await fetch(`${server.url}/robots.txt`)).text()).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });
});

describe('PUBLIC_URL in canonical links, sitemap and robots.txt', () => {
  const publicUrl = 'https://afterglow.example';
  const server = useServer({ PUBLIC_URL: publicUrl });

  it('builds every absolute URL from PUBLIC_URL, not from the address the request came to', async () => {
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).toContain(`<link rel="canonical" href="${publicUrl}/"/>`);
    const list = await (await fetch(`${server.url}/allblogs?category=Technology&page=1`)).text();
    expect(list).toContain(`<link rel="canonical" href="${publicUrl}/allblogs?category=Technology"/>`);
    const sitemap = xml.parse(await (await fetch(`${server.url}/sitemap.xml`)).text()) as { urlset: { url: { loc: string }[] } };
    expect(sitemap.urlset.url.every((u) => u.loc.startsWith(`${publicUrl}/`))).toBe(true);
    expect(await (await fetch(`${server.url}/robots.txt`)).text()).toContain(`Sitemap: ${publicUrl}/sitemap.xml`);
  });
});
