import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { fillBlogForm, seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, scrollToElement, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { photoWithSubject } from '../support/images';
import { useServer } from '../support/server';

/** What the browser computes for a cropped photo: the focus that stays in view. */
const objectPosition = (img: Locator) => img.evaluate((el) => getComputedStyle(el).objectPosition);

/** The card of `title` on All blogs, and its photo. */
async function cardPhoto(page: Page, base: string, title: string): Promise<Locator> {
  await page.goto(`${base}/allblogs`);
  const photo = page.getByTestId('blog-card').filter({ hasText: title }).locator('img');
  await photo.waitFor();
  return photo;
}

/** The blog page's photo. */
async function pagePhoto(page: Page, base: string, id: string): Promise<Locator> {
  await page.goto(`${base}/blogs/${id}`);
  const photo = page.locator('main figure img').first();
  await photo.waitFor();
  return photo;
}

/**
 * Photos keep their subject (decision 040): the writer sets the photo's focus on the
 * form (a click on the thumbnail, or the radio buttons), and the card and the blog page crop
 * around it; Automatic uses the point the pipeline found at upload.
 */
describe('a photo keeps its subject: the focus set on the form is where cards and the page crop', () => {
  const server = useServer();
  const browsers = useBrowsers();

  it('a click on the thumbnail picks the focus; Automatic on edit brings back the point found at upload', async () => {
    const { page, context } = await browsers.open({ viewport: { width: 1280, height: 900 } });
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    const title = `Portrait ${Date.now().toString(36)}`;
    await fillBlogForm(page, title);
    // A tall photo with its subject near the top: centred, a wide crop would cut it off.
    await page.getByLabel('Image', { exact: true }).setInputFiles({ name: 'portrait.jpg', mimeType: 'image/jpeg', buffer: await photoWithSubject({ x: 50, y: 12 }, 600, 1000) });

    const focus = page.getByRole('group', { name: 'Photo focus' });
    expect(await focus.getByRole('radio', { name: 'Automatic' }).isChecked()).toBe(true);
    const thumbnail = page.getByTestId('photo-thumbnail');
    await thumbnail.waitFor();
    await scrollToElement(thumbnail);
    const box = (await thumbnail.boundingBox())!;
    // A click in the thumbnail's bottom-right third.
    await thumbnail.click({ position: { x: box.width * 0.9, y: box.height * 0.85 } });
    expect(await focus.getByRole('radio', { name: 'Bottom right', exact: true }).isChecked()).toBe(true);
    const marker = page.getByTestId('photo-focus-marker');
    expect(await marker.evaluate((el) => [el.style.left, el.style.top])).toEqual(['100%', '100%']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'photo-focus-form');

    await page.getByRole('button', { name: 'Add Blog' }).click();
    await page.waitForURL(/\/allblogs$/, { timeout: 20_000 });
    const card = await cardPhoto(page, server.url, title);
    expect(await objectPosition(card)).toBe('100% 100%');
    // srcset and sizes are kept as they were.
    expect(await card.getAttribute('srcset')).toMatch(/-400\.webp 400w, .*-800\.webp 800w, .*-1600\.webp 1600w$/);
    expect(await card.getAttribute('sizes')).toBe('(min-width: 1024px) 370px, (min-width: 768px) 50vw, 100vw');
    await page.getByTestId('blog-card').filter({ hasText: title }).getByRole('link', { name: title }).click();
    await page.waitForURL(/\/blogs\//);
    // The post's address is /blogs/{id}/{slug} (docs/decisions/069).
    const id = new URL(page.url()).pathname.split('/')[2]!;
    expect(await objectPosition(await pagePhoto(page, server.url, id))).toBe('100% 100%');

    // Edit: the keyboard moves within the radio group; Automatic is the point found at upload.
    await page.goto(`${server.url}/updateBlog/${id}`);
    await waitForHydration(page);
    const editFocus = page.getByRole('group', { name: 'Photo focus' });
    expect(await editFocus.getByRole('radio', { name: 'Bottom right', exact: true }).isChecked()).toBe(true);
    await editFocus.getByRole('radio', { name: 'Automatic' }).focus();
    await page.keyboard.press('Space');
    expect(await editFocus.getByRole('radio', { name: 'Automatic' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Update Blog' }).click();
    await page.waitForURL(/\/allblogs$/, { timeout: 20_000 });

    const automatic = await objectPosition(await pagePhoto(page, server.url, id));
    const [x, y] = automatic.split(' ').map((v) => Number.parseFloat(v));
    // The subject's point: the middle across, near the top, not the old centre.
    expect(Math.abs(x! - 50), automatic).toBeLessThanOrEqual(10);
    expect(y!, automatic).toBeLessThan(30);
    expect(await objectPosition(await cardPhoto(page, server.url, title))).toBe(automatic);
  });

  it('without JavaScript, on a phone: the radio buttons set the focus, and the page crops around it', async () => {
    const { page, context } = await browsers.open({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    await signUp(context, server.url);
    const photo = await uploadPhoto(context, server.url, await photoWithSubject({ x: 30, y: 20 }, 900, 1200));
    const id = await seedBlog(context, server.url, { title: `Plain form ${Date.now().toString(36)}`, photo });
    await page.goto(`${server.url}/updateBlog/${id}`);
    const focus = page.getByRole('group', { name: 'Photo focus' });
    expect(await focus.getByRole('radio', { name: 'Automatic' }).isChecked()).toBe(true);
    // Nothing wider than the phone: the nine positions fit beside or under the photo.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await screenshot(page, 'photo-focus-phone-no-js');
    await focus.getByRole('radio', { name: 'Left', exact: true }).check();
    await page.getByRole('button', { name: 'Update Blog' }).click();
    await page.waitForURL(/\/allblogs$/, { timeout: 20_000 });
    expect(await objectPosition(await pagePhoto(page, server.url, id))).toBe('0% 50%');
  });
});
