import { beforeAll, describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { useBrowsers } from '../support/browser';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, openBrowser, VIEWPORTS, waitForHydration } from '../support/browser';
import { seedBlogs, seedWishlist } from '../support/home-seed';

const server = useServer();
let browser: Browser | undefined;
let blogIds: string[];

beforeAll(async () => {
  const seeder = await openBrowser();
  await signUp(seeder.context, server.url, { name: 'Writer' });
  blogIds = await seedBlogs(seeder.context, server.url, [{ title: 'Harbour lights' }, { title: 'Clay and kiln' }]);
  await seeder.close();
});
const browsers = useBrowsers();

const activeInfo = () => {
  const el = document.activeElement;
  return { tag: el?.tagName, text: el?.textContent?.trim(), inDialog: !!el?.closest('dialog[open]') };
};

describe('the toast and dialog set', () => {
  it('moves focus into a dialog, closes it on Escape and gives focus back', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(server.url);
    await waitForHydration(page);
    const button = page.getByRole('button', { name: 'Add to Wishlist: Clay and kiln' });
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Login required' });
    await dialog.waitFor();
    // Named by its title, described by its text, modal (the page behind is inert).
    expect(await dialog.getAttribute('aria-describedby')).toBe(await dialog.getByText('Please login to add to wishlist.').getAttribute('id'));
    expect(await dialog.evaluate((d) => d.matches(':modal'))).toBe(true);
    expect(await page.evaluate(activeInfo)).toEqual({ tag: 'BUTTON', text: 'OK', inDialog: true });
    // Tab stays inside the dialog.
    await page.keyboard.press('Tab');
    expect((await page.evaluate(activeInfo)).inDialog || (await page.evaluate(() => document.activeElement === document.body))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(activeInfo)).toEqual({ tag: 'BUTTON', text: 'Add to Wishlist', inDialog: false });

    // The OK button closes it the same way.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(activeInfo)).toEqual({ tag: 'BUTTON', text: 'Add to Wishlist', inDialog: false });
  });

  it('starts a confirmation on Cancel and resolves it to false on Escape and Cancel', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    // Deleting one's blog asks first (so does removing a wishlist entry: wishlist.e2e).
    const [own] = await seedBlogs(context, server.url, [{ title: 'My own harbour' }]);
    await page.goto(`${server.url}/blogs/${own}`);
    await waitForHydration(page);
    const remove = page.getByText('Delete Blog', { exact: true });
    const confirm = page.getByRole('dialog', { name: 'Are you sure?' });
    await remove.click();
    await confirm.waitFor();
    // A destructive confirmation starts on its safe answer; Escape answers no.
    expect(await page.evaluate(activeInfo)).toEqual({ tag: 'BUTTON', text: 'Cancel', inDialog: true });
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(activeInfo)).toMatchObject({ text: 'Delete Blog', inDialog: false });
    await remove.click();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await fetch(`${server.url}/api/blogs/${own}`)).status).toBe(200);
  });

  it('announces toasts in a polite status region and removes them after their duration', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    await page.goto(`${server.url}/allblogs`);
    await waitForHydration(page);
    const region = page.getByRole('status').filter({ has: page.getByTestId('toasts') }).or(page.getByTestId('toasts'));
    expect(await region.getAttribute('role')).toBe('status');
    expect(await region.getAttribute('aria-live')).toBe('polite');
    const before = await region.evaluate((r) => r.outerHTML.length);
    expect(before).toBeGreaterThan(0);
    // Taken before the click: on a busy machine waitFor() may return late, which would shorten the
    // measured stay; from before the click it can only look longer, never pass when too short.
    const clickedAt = Date.now();
    await page.getByRole('button', { name: 'Add to Wishlist: Harbour lights' }).click();
    const toast = region.getByText('Added to wishlist!', { exact: true });
    await toast.waitFor();
    // The region existed before the toast arrived, so screen readers announce the new text.
    expect(await page.getByRole('status').getByText('Added to wishlist!').count()).toBe(1);
    await toast.waitFor({ state: 'detached', timeout: 30_000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1400);
  });

  it('leaves no axe violations on the home, wishlist and newsletter screens with content', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      browser = await browsers.open({ colorScheme, viewport: VIEWPORTS.phone, reducedMotion: 'reduce' });
      const { page, context } = browser;
      await signUp(context, server.url);
      await seedWishlist(context, server.url, blogIds[1]!);
      const found: string[] = [];
      for (const path of ['/', '/wishlist', '/newsletter', '/recent', '/memoryframe', '/counter']) {
        await page.goto(`${server.url}${path}`);
        await waitForHydration(page);
        for (const v of await axeViolations(page)) found.push(`${colorScheme} ${path}: ${v.id} — ${v.help} — ${v.targets.join(', ')}`);
      }
      expect(found).toEqual([]);
      const errors = browser.errors;
      await browser.close();
      browser = undefined;
      expect(errors).toEqual([]);
    }
  });
});
