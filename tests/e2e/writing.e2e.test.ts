import { describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { useBrowsers } from '../support/browser';
import { jpegImage } from '../support/images';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, screenshot, waitForHydration } from '../support/browser';

/**
 * Writing: what a picture may be is said up front, the chosen one shows as a
 * thumbnail, the text is kept as a draft in this browser, and leaving with unsaved text asks first.
 */
describe('writing a blog', () => {
  const server = useServer();
  let browser: Browser | undefined;
  const browsers = useBrowsers();

  it('states the accepted pictures, shows a thumbnail, keeps a draft across a reload and asks before leaving', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    expect(await page.locator('#image-hint').textContent()).toBe('JPEG, PNG, WebP or GIF, up to 10 MB.');
    expect(await page.getByLabel('Image').getAttribute('aria-describedby')).toContain('image-hint');

    await page.getByLabel('Image').setInputFiles({ name: 'pier.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(400, 600) });
    const thumbnail = page.getByTestId('photo-thumbnail');
    await thumbnail.waitFor();
    expect(await thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);

    await page.getByLabel('Title').fill('Half a story');
    await page.getByLabel('Long description').fill('It started on the pier.');
    await page.getByLabel('Category').selectOption('Personal');
    expect(await axeViolations(page)).toEqual([]);

    // A reload (or a closed tab) brings the text back, with a way to throw it away.
    page.once('dialog', (d) => void d.accept());
    await page.reload();
    await waitForHydration(page);
    await page.getByTestId('draft-restored').waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Half a story');
    expect(await page.getByLabel('Long description').inputValue()).toBe('It started on the pier.');
    expect(await page.getByLabel('Category').inputValue()).toBe('Personal');
    await screenshot(page, 'writing-draft-restored');

    // A link inside the site asks first; Stay keeps the page, Leave goes.
    await page.getByRole('banner').getByRole('link', { name: 'All Blogs' }).click();
    const ask = page.getByRole('dialog', { name: 'Leave without saving?' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/addBlog');
    await page.getByRole('banner').getByRole('link', { name: 'All Blogs' }).click();
    await ask.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/allblogs$/);

    // Discarding clears the draft for good.
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Discard draft' }).click();
    expect(await page.getByLabel('Title').inputValue()).toBe('');
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')))).toEqual([]);
  });

  it("keeps a draft to its own account and clears every draft at logout, so the next account's form starts empty", async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const drafts = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:')));
    const first = await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    await page.getByLabel('Title').fill('Private thoughts');
    await page.getByLabel('Long description').fill('Not for the next person at this computer.');
    await expect.poll(drafts).toHaveLength(1);

    // Another account signs in at the same browser without logging out: its form is empty.
    page.once('dialog', (d) => void d.accept());
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    expect(await page.getByTestId('draft-restored').count()).toBe(0);
    expect(await page.getByLabel('Title').inputValue()).toBe('');
    expect(await page.getByLabel('Long description').inputValue()).toBe('');

    // The first account gets its draft back.
    const back = await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email: first.email, password: first.password }, headers: { origin: server.url } });
    expect(back.ok()).toBe(true);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    await page.getByTestId('draft-restored').waitFor();
    expect(await page.getByLabel('Title').inputValue()).toBe('Private thoughts');

    // Logging out through the menu (from another page) removes every draft kept here.
    await page.getByRole('banner').getByRole('link', { name: 'All Blogs' }).click();
    await page.getByRole('dialog', { name: 'Leave without saving?' }).getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(/\/allblogs$/);
    expect(await drafts()).toHaveLength(1);
    await page.getByTestId('user-menu').locator('summary').click();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await drafts()).toEqual([]);
  }, 240_000);
});
