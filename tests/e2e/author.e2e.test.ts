import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { seedBlogs } from '../support/home-seed';

/** A writer's page from the byline, and "My blogs" from the profile. */
describe('the author page', () => {
  const server = useServer();
  let browser: Browser | undefined;
  let writer: Browser;
  let ids: string[] = [];

  beforeAll(async () => {
    writer = await openBrowser({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    await signUp(writer.context, server.url, { name: 'Wren Writer' });
    ids = await seedBlogs(writer.context, server.url, [{ title: 'First light' }, { title: 'A hidden draft', availability: 'Hidden' }, { title: 'Last light' }]);
  });
  afterEach(async () => {
    await browser?.close();
    browser = undefined;
  });
  afterAll(async () => {
    await writer?.close();
  });

  it('opens from the byline and lists the writer’s Public blogs, newest first', async () => {
    browser = await openBrowser();
    const { page } = browser;
    await page.goto(`${server.url}/blogs/${ids[0]}`);
    await waitForHydration(page);
    await page.getByTestId('author').click();
    await page.waitForURL(/\/authors\//);
    await page.getByRole('heading', { level: 1, name: 'Wren Writer' }).waitFor();
    expect(await page.getByTestId('author-blogs').getByRole('link').allTextContents()).toEqual(['Last light', 'First light']);
    expect(await page.getByTestId('author-stats').count()).toBe(0);
    // Each card says how long the read is, beside the writer and the date.
    expect(await page.getByTestId('author-blogs').getByTestId('card-reading-time').allTextContents()).toEqual([' · 1 min read', ' · 1 min read']);
    await screenshot(page, 'author-desktop-light');
    expect(await axeViolations(page)).toEqual([]);
    expect(browser.errors).toEqual([]);
    expect((await fetch(`${server.url}/authors/no-such-user`)).status).toBe(404);
  });

  it('offers the writer’s own feed (a visible link and <link rel="alternate">) with their Public blogs only', async () => {
    const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${server.url}/blogs/${ids[0]}`)).text())![1]!;
    const html = await (await fetch(`${server.url}${authorPath}`)).text();
    expect(html).toContain(`<link rel="alternate" type="application/rss+xml" href="${authorPath}/rss.xml" title="Wren Writer (RSS)"/>`);
    expect(html).toContain(`<link rel="alternate" type="application/atom+xml" href="${authorPath}/feed.xml" title="Wren Writer (Atom)"/>`);
    browser = await openBrowser();
    await browser.page.goto(`${server.url}${authorPath}`);
    expect(await browser.page.getByRole('link', { name: 'Follow Wren Writer by RSS' }).getAttribute('href')).toBe(`${authorPath}/rss.xml`);
    for (const [file, type] of [['rss.xml', 'application/rss+xml'], ['feed.xml', 'application/atom+xml']] as const) {
      const res = await fetch(`${server.url}${authorPath}/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(type);
      const xml = await res.text();
      expect(xml).toContain('Last light');
      expect(xml).toContain('First light');
      expect(xml).not.toContain('A hidden draft');
    }
    expect((await fetch(`${server.url}/authors/no-such-user/rss.xml`)).status).toBe(404);
  });

  it('follows and unfollows the writer from their page, and sends a visitor to log in first', async () => {
    browser = await openBrowser();
    const { page, context } = browser;
    const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${server.url}/blogs/${ids[0]}`)).text())![1]!;
    await page.goto(`${server.url}${authorPath}`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Follow Wren Writer', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('redirectTo') === authorPath);
    await signUp(context, server.url, { name: 'Fern Follower' });
    await page.goto(`${server.url}${authorPath}`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Follow Wren Writer', exact: true }).click();
    await page.getByRole('button', { name: 'Unfollow Wren Writer', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe(authorPath);
    await page.reload();
    await page.getByRole('button', { name: 'Unfollow Wren Writer', exact: true }).click();
    await page.getByRole('button', { name: 'Follow Wren Writer', exact: true }).waitFor();
    expect(browser.errors).toEqual([]);
    // The writer sees no Follow button on their own page.
    await writer.page.goto(`${server.url}${authorPath}`);
    expect(await writer.page.getByTestId('follow-button').count()).toBe(0);
  });

  it('shows the writer every blog of theirs, Hidden included, with views and likes, from the profile', async () => {
    const { page } = writer;
    await page.goto(`${server.url}/profile`);
    await waitForHydration(page);
    await page.getByRole('link', { name: 'My blogs' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wren Writer' }).waitFor();
    expect(await page.getByTestId('author-blogs').getByRole('link').allTextContents()).toEqual(['Last light', 'A hidden draft', 'First light']);
    expect(await page.getByTestId('author-blogs').getByText('Hidden', { exact: true }).count()).toBe(1);
    expect(await page.getByTestId('author-stats').first().textContent()).toBe('0 views · 0 likes');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(VIEWPORTS.phone.width);
    await screenshot(page, 'author-own-phone-dark');
    expect(await axeViolations(page)).toEqual([]);
  });
});
