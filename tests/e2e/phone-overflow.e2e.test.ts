import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { openBrowser, type Browser, waitForHydration } from '../support/browser';

/**
 * A one-word 90-character title and a 200-character address in the body
 * do not widen the page on a 320 px phone, in either theme, nor the screens that list the blog.
 */
describe('nothing overflows on a narrow phone', () => {
  const server = useServer();
  let browser: Browser | undefined;
  let blogId = '';
  const longWord = 'Sunsetsunsetsunset'.repeat(5);
  const longUrl = `https://example.com/${'a-long-path-segment/'.repeat(9)}end`;

  beforeAll(async () => {
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
  });

  // 320 px (the narrowest phone in use) and 390 px (the issue's phone), in both themes.
  it.each([320, 390].flatMap((width) => (['light', 'dark'] as const).map((colorScheme) => [width, colorScheme] as const)))('at %i px in the %s theme', async (width, colorScheme) => {
    expect(longWord).toHaveLength(90);
    expect(longUrl.length).toBeGreaterThanOrEqual(200);
    browser = await openBrowser({ viewport: { width, height: 700 }, colorScheme });
    const { page } = browser;
    const widths: Record<string, number> = {};
    const authorPath = /href="(\/authors\/[^"]+)"/.exec(await (await fetch(`${server.url}/blogs/${blogId}`)).text())![1]!;
    for (const path of [`/blogs/${blogId}`, '/allblogs', '/', '/featuredBlogs', authorPath]) {
      await page.goto(`${server.url}${path}`);
      await waitForHydration(page);
      widths[path.replace(authorPath, '/authors/:id')] = await page.evaluate(() => document.documentElement.scrollWidth);
    }
    console.log(`phone overflow (${colorScheme}): ${Object.entries(widths).map(([p, w]) => `${p.replace(blogId, ':id')} ${w}px`).join(', ')} at a ${width} px viewport`);
    expect(Object.values(widths)).toEqual(Object.values(widths).map(() => width));
    expect(browser.errors).toEqual([]);
    await browser.close();
    browser = undefined;
  });
});
