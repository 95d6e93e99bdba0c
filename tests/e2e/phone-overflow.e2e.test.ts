import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/auth';
import { seedBlog, uploadPhoto } from './helpers/blogs';
import { openBrowser, type Browser, waitForHydration } from './helpers/browser';
import { type RunningServer, startServer } from './helpers/server';

/**
 * Issue 17 "Done when": a one-word 90-character title and a 200-character address in the body
 * do not widen the page on a 320 px phone, in either theme, nor the screens that list the blog.
 */
describe('nothing overflows on a narrow phone', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  let blogId = '';
  const longWord = 'Sunsetsunsetsunset'.repeat(5);
  const longUrl = `https://example.com/${'a-long-path-segment/'.repeat(9)}end`;

  beforeAll(async () => {
    server = await startServer();
    const writer = await openBrowser();
    try {
      await signUp(writer.context, server.url);
      blogId = await seedBlog(writer.context, server.url, {
        title: longWord,
        short_description: `See ${longUrl}`,
        long_description: `Read this first: ${longUrl}\n\n| a | b |\n|---|---|\n| ${longWord} | ${longUrl} |`,
        photo: await uploadPhoto(writer.context, server.url),
      });
    } finally {
      await writer.close();
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each(['light', 'dark'] as const)('at 320 px in the %s theme', async (colorScheme) => {
    expect(longWord).toHaveLength(90);
    expect(longUrl.length).toBeGreaterThanOrEqual(200);
    browser = await openBrowser({ viewport: { width: 320, height: 700 }, colorScheme });
    const { page } = browser;
    const widths: Record<string, number> = {};
    for (const path of [`/blogs/${blogId}`, '/allblogs', '/', '/featuredBlogs']) {
      await page.goto(`${server.url}${path}`);
      await waitForHydration(page);
      widths[path] = await page.evaluate(() => document.documentElement.scrollWidth);
    }
    console.log(`phone overflow (${colorScheme}): ${Object.entries(widths).map(([p, w]) => `${p.replace(blogId, ':id')} ${w}px`).join(', ')} at a 320 px viewport`);
    expect(Object.values(widths)).toEqual(Object.values(widths).map(() => 320));
    expect(browser.errors).toEqual([]);
    await browser.close();
    browser = undefined;
  });
});
