import Database from 'better-sqlite3';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { uploadPhoto, seedBlog } from '../support/blogs';
import { openBrowser, waitForHydration } from '../support/browser';

/** Dates and numbers in the viewer's locale, on a document that says its language. */
describe('dates and numbers in the viewer’s locale', () => {
  const server = useServer();
  let blogId = '';
  beforeAll(async () => {
    const writer = await openBrowser();
    try {
      await signUp(writer.context, server.url);
      blogId = await seedBlog(writer.context, server.url, { photo: await uploadPhoto(writer.context, server.url) });
    } finally {
      await writer.close();
    }
  });
  /** Counts large enough to need a thousands separator. */
  const setCounts = () => {
    const db = new Database(path.join(server.dataDir, 'afterglow.db'));
    db.prepare('update blogs set views = 12345, likes = 1234, created_at = ? where id = ?').run('2026-03-04T10:00:00.000Z', blogId);
    db.close();
  };

  it.each([
    ['de-DE', '12.345 views', '1.234', '04.03.2026'],
    ['en-US', '12,345 views', '1,234', 'Mar 4, 2026'],
  ])('formats for %s', async (locale, views, likes, date) => {
    setCounts();
    const { page, errors, close } = await openBrowser({ locale });
    try {
      // This browser has seen the blog already, so the count set above is the one shown.
      await page.addInitScript((id) => localStorage.setItem('viewedBlogs', JSON.stringify([id])), blogId);
      await page.goto(`${server.url}/blogs/${blogId}`);
      await waitForHydration(page);
      await page.getByText(views, { exact: true }).waitFor();
      expect(await page.getByTestId('like-count').textContent()).toBe(likes);
      expect(await page.locator('time').first().textContent()).toBe(date);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
