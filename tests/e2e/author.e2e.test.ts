import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/auth';
import { axeViolations } from './helpers/axe';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from './helpers/browser';
import { seedBlogs } from './helpers/home-seed';
import { type RunningServer, startServer } from './helpers/server';

/** Issue 17 "Authors": a writer's page from the byline, and "My blogs" from the profile. */
describe('the author page', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  let writer: Browser;
  let ids: string[] = [];

  beforeAll(async () => {
    server = await startServer();
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
    await server?.stop();
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
    await screenshot(page, 'author-desktop-light');
    expect(await axeViolations(page)).toEqual([]);
    expect(browser.errors).toEqual([]);
    expect((await fetch(`${server.url}/authors/no-such-user`)).status).toBe(404);
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
