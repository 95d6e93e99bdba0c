import { describe, expect, it } from 'vitest';
import { refused, useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import { SVG_IMAGE, jpegImage, sidewaysJpegWithExif } from '../support/images';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { fillBlogForm, seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, VIEWPORTS, waitForHydration } from '../support/browser';

const server = useServer();
/** The browser logs a refused request's status as a console error; a test names those it provokes. */
const { open, allow } = useBrowsers({ allowed: refused(404) });

async function blogTitles(): Promise<string[]> {
  const res = await fetch(`${server.url}/api/blogs?limit=100`);
  return ((await res.json()) as { title: string }[]).map((b) => b.title);
}

describe('writing blogs', () => {
  it('adds a blog: fields, real upload with a progress bar, success message, then All blogs', async () => {
    const { page, context } = await open();
    const user = await signUp(context, server.url, { name: 'Wanda Writer' });
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(user.email);
    expect(await page.getByLabel('Email').getAttribute('readonly')).not.toBeNull();
    expect(await page.getByLabel('Name').inputValue()).toBe('Wanda Writer');
    expect(await page.getByLabel('Category').locator('option:not([disabled])').allTextContents()).toEqual([
      'Personal', 'Travelling & Photography', 'Fashion & Beauty', 'Food & Health', 'Technology', 'Education', 'DIY & Craft Blogs',
    ]);
    expect(await page.getByLabel('Type').locator('option:not([disabled])').allTextContents()).toEqual(['written content', 'Video', 'Photo', 'Podcast', 'Mini blog']);
    expect(await page.getByLabel('Availability').locator('option:not([disabled])').allTextContents()).toEqual(['Public', 'Hidden']);

    // Every required field is named before anything is sent.
    await page.getByRole('button', { name: 'Add Blog' }).click();
    for (const field of ['title', 'category', 'type', 'short_description', 'long_description', 'image', 'availability']) {
      await page.getByTestId(`${field}-error`).waitFor();
    }
    expect(await page.getByLabel('Title').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'blogs-add-errors');
    expect(await axeViolations(page)).toEqual([]);

    await fillBlogForm(page, 'Evening over the bay');
    await page.getByLabel('Image').setInputFiles({ name: 'bay.jpg', mimeType: 'image/jpeg', buffer: await sidewaysJpegWithExif() });
    // Holds the upload a moment so the progress bar can be seen.
    await page.route('**/api/images', async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Add Blog' }).click();
    await page.getByTestId('upload-progress').waitFor();
    await page.getByText('Your Blog added successfully!').waitFor();
    await page.waitForURL(`${server.url}/allblogs`);
    const card = page.getByTestId('blog-card').filter({ hasText: 'Evening over the bay' });
    await card.waitFor();
    const srcset = await card.locator('img').getAttribute('srcset');
    expect(srcset).toMatch(/^\/uploads\/[0-9a-f-]{36}-400\.webp 400w, .*-800\.webp 800w, .*-1600\.webp 1600w$/);
    expect(await card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  it('refuses a file that is not an image with ‘Image upload failed.’ and saves nothing', async () => {
    const { page, context } = await open();
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    allow(refused(415));
    await fillBlogForm(page, 'Never saved (script)');
    await page.getByLabel('Image').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: SVG_IMAGE });
    await page.getByRole('button', { name: 'Add Blog' }).click();
    const dialog = page.getByTestId('feedback-dialog');
    await dialog.getByText('Upload Failed', { exact: true }).waitFor();
    await dialog.getByText('Image upload failed.').waitFor();
    await screenshot(page, 'blogs-add-upload-failed');
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(await page.getByTestId('image-error').textContent()).toBe('Image upload failed.');
    expect(new URL(page.url()).pathname).toBe('/addBlog');
    expect(await blogTitles()).not.toContain('Never saved (script)');
  });

  it('works without JavaScript: the action runs the pipeline, refuses a bad file and adds a good one', async () => {
    const { page, context } = await open({ javaScriptEnabled: false });
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    allow(refused(400));
    await fillBlogForm(page, 'Written without scripts');
    await page.getByLabel('Image').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.getByRole('button', { name: 'Add Blog' }).click();
    await page.getByTestId('image-error').waitFor();
    expect(await page.getByTestId('image-error').textContent()).toBe('Image upload failed.');
    // The typed text survives the round trip.
    expect(await page.getByLabel('Title').inputValue()).toBe('Written without scripts');
    expect(await blogTitles()).not.toContain('Written without scripts');

    await page.getByLabel('Image').setInputFiles({ name: 'ok.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(800, 500) });
    await page.getByRole('button', { name: 'Add Blog' }).click();
    await page.waitForURL(`${server.url}/allblogs`);
    await page.getByText('Your Blog added successfully!').waitFor();
    expect(await blogTitles()).toContain('Written without scripts');
  });

  it('edits as the owner only, keeping the current image when no file is chosen', async () => {
    const owner = await open();
    await signUp(owner.context, server.url);
    const photo = await uploadPhoto(owner.context, server.url);
    const id = await seedBlog(owner.context, server.url, { title: 'Before the edit', photo });

    const stranger = await open();
    await signUp(stranger.context, server.url);
    await stranger.page.goto(`${server.url}/updateBlog/${id}`);
    await stranger.page.waitForURL(`${server.url}/blogs/${id}`);
    await stranger.page.getByText("You can't update this blog!Only Owner is allowed to Update.").waitFor();
    await stranger.page.goto(`${server.url}/blogs/${id}`);
    await waitForHydration(stranger.page);
    await stranger.page.getByRole('link', { name: 'Update Blog' }).click();
    await stranger.page.getByTestId('feedback-dialog').getByText("You can't update this blog!Only Owner is allowed to Update.").waitFor();
    expect(new URL(stranger.page.url()).pathname).toBe(`/blogs/${id}`);

    const { page } = owner;
    await page.goto(`${server.url}/blogs/${id}`);
    await waitForHydration(page);
    await page.getByRole('link', { name: 'Update Blog' }).click();
    await page.waitForURL(`${server.url}/updateBlog/${id}`);
    await waitForHydration(page);
    expect(await page.getByLabel('Title').inputValue()).toBe('Before the edit');
    expect(await page.getByLabel('Category').inputValue()).toBe('Travelling & Photography');
    await page.getByText('Current image will be kept if no file is selected.').waitFor();
    await screenshot(page, 'blogs-edit-desktop');
    await page.getByLabel('Title').fill('After the edit');
    await page.getByRole('button', { name: 'Update Blog' }).click();
    await page.getByText('Your blog has been updated').waitFor();
    await page.waitForURL(`${server.url}/allblogs`);
    const blog = (await (await fetch(`${server.url}/api/blogs/${id}`)).json()) as { title: string; photo: string };
    expect(blog).toMatchObject({ title: 'After the edit', photo });
  });

  it('deletes as the owner after a confirmation dialog', async () => {
    const { page, context } = await open({ viewport: VIEWPORTS.phone });
    await signUp(context, server.url);
    const photo = await uploadPhoto(context, server.url);
    const id = await seedBlog(context, server.url, { title: 'Short-lived', photo });
    await page.goto(`${server.url}/blogs/${id}`);
    await waitForHydration(page);
    await page.getByText('Delete Blog').click();
    const dialog = page.getByTestId('feedback-dialog');
    await dialog.getByText('Are you sure?').waitFor();
    await dialog.getByText("You won't be able to revert this!").waitFor();
    await screenshot(page, 'blogs-delete-confirm-phone');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await fetch(`${server.url}/api/blogs/${id}`)).status).toBe(200);
    await page.getByText('Delete Blog').click();
    await dialog.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.waitForURL(`${server.url}/allblogs`);
    await page.getByText('Your blog has been deleted.').waitFor();
    expect((await fetch(`${server.url}/api/blogs/${id}`)).status).toBe(404);
  });

  it('deletes without JavaScript through the confirmation panel', async () => {
    const { page, context } = await open({ javaScriptEnabled: false });
    await signUp(context, server.url);
    const photo = await uploadPhoto(context, server.url);
    const id = await seedBlog(context, server.url, { title: 'Also short-lived', photo });
    await page.goto(`${server.url}/blogs/${id}`);
    await page.getByText('Delete Blog').click();
    await page.getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.waitForURL(`${server.url}/allblogs`);
    expect((await fetch(`${server.url}/api/blogs/${id}`)).status).toBe(404);
  });

  it('fits a phone in the dark theme, without axe violations', async () => {
    const { page, context } = await open({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    await signUp(context, server.url);
    await page.goto(`${server.url}/addBlog`);
    await waitForHydration(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'blogs-add-phone-dark');
    expect(await axeViolations(page)).toEqual([]);
  });

  it('sends anonymous visitors to log in first', async () => {
    const { page } = await open();
    await page.goto(`${server.url}/addBlog`);
    await page.waitForURL(`${server.url}/login?redirectTo=%2FaddBlog`);
  });
});
