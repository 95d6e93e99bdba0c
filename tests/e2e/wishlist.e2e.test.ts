import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { seedBlogs, seededPhoto, seedWishlist } from '../support/home-seed';
import { expectDialog } from '../support/dialogs';
import { axeViolations, axeViolationsOnPausedClock } from '../support/axe';

const server = useServer();
let browser: Browser | undefined;
let blogIds: string[];

const TITLES = ['Lanterns over the river', 'Spice market mornings', 'Soldering at sunset'];

beforeAll(async () => {
  const seeder = await openBrowser();
  await signUp(seeder.context, server.url, { name: 'Writer' });
  blogIds = await seedBlogs(seeder.context, server.url, TITLES.map((title) => ({ title })));
  await seeder.close();
});
const browsers = useBrowsers();

/** The newest blog is the first card of Recent Blogs. */
const NEWEST = TITLES.length - 1;
const homeCard = (page: Page, title: string) => page.getByTestId('recent-blog').filter({ has: page.getByRole('heading', { name: title }) });

function watchWishlistDeletes(page: Page) {
  const deletes: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'DELETE' && /\/api\/wishlist\//.test(r.url())) deletes.push(r.url());
  });
  return deletes;
}

function watchWishlistPosts(page: Page) {
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/wishlist|\/wishlist\/add/.test(r.url())) posts.push(r.postData() ?? '');
  });
  return posts;
}


describe('adding to the wishlist from the home page', () => {
  it('asks a signed-out visitor to log in and sends nothing', async () => {
    browser = await browsers.open();
    const { page } = browser;
    const posts = watchWishlistPosts(page);
    await page.goto(server.url);
    await waitForHydration(page);
    await homeCard(page, TITLES[NEWEST]!).getByRole('button', { name: /Add to Wishlist/ }).click();
    const dialog = await expectDialog(page, 'Login required', 'Please login to add to wishlist.');
    await dialog.getByRole('button', { name: 'OK' }).click();
    expect(posts).toEqual([]);
  });

  it('adds with the home page payload, toasts top-right for 1.5 s, goes to /wishlist, then refuses a duplicate without sending', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    const posts = watchWishlistPosts(page);
    await page.goto(server.url);
    await waitForHydration(page);
    const title = TITLES[NEWEST]!;
    // Taken before the click: click() may return late on a busy machine, which would shorten the
    // measured wait; from before it, the wait can only look longer, never pass when too short.
    const clickedAt = Date.now();
    await homeCard(page, title).getByRole('button', { name: /Add to Wishlist/ }).click();

    const toast = page.getByTestId('toasts').getByText('Succesfully added to wishlist!', { exact: true });
    await toast.waitFor();
    expect(await page.getByTestId('toasts').getAttribute('role')).toBe('status');
    expect(await page.getByTestId('toasts').getByRole('button').count()).toBe(0);
    const box = (await toast.boundingBox())!;
    expect(box.x + box.width).toBeGreaterThan(VIEWPORTS.desktop.width - 80);
    expect(box.y).toBeLessThan(200);

    await page.waitForURL(`${server.url}/wishlist`);
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1400);
    const payload = JSON.parse(posts[0]!) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(['blogId', 'category', 'createdAt', 'description', 'email', 'photo', 'title']);
    expect(payload).toMatchObject({ blogId: blogIds[NEWEST], title, email: user.email });

    // The address changes just before the new screen renders.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 1');
    const row = page.getByTestId('wishlist-item');
    expect(await row.getByRole('heading').textContent()).toBe(title);
    expect(await row.getByText(`A short story about ${title.toLowerCase()}.`).isVisible()).toBe(true);
    expect(await row.locator('img').getAttribute('src')).toBe(await seededPhoto(page.context(), server.url, NEWEST));
    // Details opens the post's readable address (docs/decisions/069).
    const { slug } = (await (await fetch(`${server.url}/api/blogs/${blogIds[NEWEST]}`)).json()) as { slug: string };
    expect(await row.getByRole('link', { name: /Details/ }).getAttribute('href')).toBe(`/blogs/${blogIds[NEWEST]}/${slug}`);

    await page.goto(server.url);
    await waitForHydration(page);
    await homeCard(page, title).getByRole('button', { name: /Add to Wishlist/ }).click();
    await expectDialog(page, 'Already Added!', 'This blog is already in your wishlist.');
    expect(posts).toHaveLength(1);
  });

  it('works without JavaScript: adds and lands on /wishlist with the toast; a duplicate and a signed-out visitor get their dialogs', async () => {
    browser = await browsers.open({ javaScriptEnabled: false });
    const { page, context } = browser;
    await page.goto(server.url);
    await homeCard(page, TITLES[0]!).getByRole('button', { name: /Add to Wishlist/ }).click();
    // The form posts back to the page we are on, so the URL alone does not say the answer is here.
    await page.getByRole('dialog', { name: 'Login required' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Login required' }).getByText('Please login to add to wishlist.').isVisible()).toBe(true);

    await signUp(context, server.url);
    await page.goto(server.url);
    await homeCard(page, TITLES[0]!).getByRole('button', { name: /Add to Wishlist/ }).click();
    await page.waitForURL(`${server.url}/wishlist`);
    expect(await page.getByTestId('toasts').getByText('Succesfully added to wishlist!').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 1');

    await page.goto(server.url);
    await homeCard(page, TITLES[0]!).getByRole('button', { name: /Add to Wishlist/ }).click();
    await page.getByRole('dialog', { name: 'Already Added!' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Already Added!' }).getByText('This blog is already in your wishlist.').isVisible()).toBe(true);

    // From All blogs it comes back to the same page with 'Added to wishlist!'.
    await page.goto(`${server.url}/allblogs`);
    await page.getByTestId('blog-card').filter({ has: page.getByRole('heading', { name: TITLES[2] }) }).getByRole('button', { name: /Add to Wishlist/ }).click();
    await page.getByTestId('toasts').getByText('Added to wishlist!', { exact: true }).waitFor();
    expect(await page.getByTestId('toasts').getByText('Added to wishlist!', { exact: true }).count()).toBe(1);
    await page.goto(`${server.url}/wishlist`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 2');
  });
});

describe('adding from All blogs', () => {
  it('sends the All blogs payload, says Added to wishlist! for 1.5 s and stays; a second press says Already Added!', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    const posts = watchWishlistPosts(page);
    await page.goto(`${server.url}/allblogs`);
    await waitForHydration(page);
    const card = page.getByTestId('blog-card').filter({ has: page.getByRole('heading', { name: TITLES[1] }) });
    await card.getByRole('button', { name: /Add to Wishlist/ }).click();
    const toast = page.getByTestId('toasts').getByText('Added to wishlist!', { exact: true });
    await toast.waitFor();
    expect(Object.keys(JSON.parse(posts[0]!) as object).sort()).toEqual(['blogId', 'category', 'description', 'email', 'likeCount', 'photo', 'title']);
    await toast.waitFor({ state: 'detached', timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/allblogs');
    await card.getByRole('button', { name: /Add to Wishlist/ }).click();
    await expectDialog(page, 'Already Added!', 'This blog is already in your wishlist.');
    expect(posts).toHaveLength(1);
  });
});

describe('the wishlist screen', () => {
  it('is the same screen at /wishList, /wishlist and /wishList/{own email}; another email leads to one’s own', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    for (const path of ['/wishList', '/wishlist', `/wishList/${encodeURIComponent(user.email)}`, `/WISHLIST/${user.email.toUpperCase()}`]) {
      await page.goto(`${server.url}${path}`);
      expect(await page.getByRole('heading', { level: 1 }).textContent(), path).toBe('My Wishlist : 0');
      expect(await page.getByText('No blogs in your wishlist yet!').isVisible()).toBe(true);
    }
    await page.goto(`${server.url}/wishList/someone.else%40example.com`);
    expect(new URL(page.url()).pathname).toBe(`/wishList/${encodeURIComponent(user.email)}`);
  });

  it('asks "Are you sure?" first (Cancel and Escape keep the row), then says "Deleted!" for 1.5 s with an Undo; a failure says "Error!"', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    for (const id of blogIds) await seedWishlist(context, server.url, id);
    const deletes = watchWishlistDeletes(page);
    await page.goto(`${server.url}/wishlist`);
    await waitForHydration(page);
    const heading = page.getByRole('heading', { level: 1 });
    expect(await heading.textContent()).toBe('My Wishlist : 3');
    const remove = (title: string) => page.getByRole('button', { name: `Remove ${title}` });

    // The product's confirmation, in the site's own modal; Cancel and Escape answer no and send nothing.
    await remove(TITLES[0]!).click();
    const confirm = await expectDialog(page, 'Are you sure?', "You won't be able to revert this!");
    expect(await confirm.getAttribute('data-testid')).toBe('feedback-dialog');
    expect(await confirm.evaluate((d) => d.matches(':modal'))).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    expect(await confirm.getByRole('button').allTextContents()).toEqual(['Cancel', 'Yes, delete it!']);
    await screenshot(page, 'wishlist-confirm-desktop');
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await remove(TITLES[0]!).click();
    await confirm.waitFor();
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(deletes).toEqual([]);
    expect(await heading.textContent()).toBe('My Wishlist : 3');
    expect(await remove(TITLES[0]!).count()).toBe(1);

    // Confirmed: removed, and 'Deleted!' says so for 1.5 s (docs/product.md#constants), on the page's paused clock.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await remove(TITLES[0]!).click();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    const deleted = await expectDialog(page, 'Deleted!', 'Blog has been removed from wishlist.');
    expect(deletes).toHaveLength(1);
    await expect.poll(() => heading.textContent()).toBe('My Wishlist : 2');
    expect(await remove(TITLES[0]!).count()).toBe(0);
    expect(await deleted.getByRole('button').allTextContents()).toEqual(['Undo', 'OK']);
    await screenshot(page, 'wishlist-deleted-desktop');
    const checked = await axeViolationsOnPausedClock(page);
    expect(checked.violations).toEqual([]);
    await page.clock.runFor(1400 - checked.advancedMs);
    expect(await deleted.isVisible()).toBe(true);
    await page.clock.runFor(200);
    await deleted.waitFor({ state: 'detached' });
    expect(await heading.textContent()).toBe('My Wishlist : 2');

    // The Undo on top of the product's message: going for it stops the dialog's clock, and it puts
    // the blog back.
    await remove(TITLES[1]!).click();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await deleted.waitFor();
    await expect.poll(() => heading.textContent()).toBe('My Wishlist : 1');
    await deleted.getByRole('button', { name: 'Undo' }).hover();
    await page.clock.runFor(3000);
    expect(await deleted.isVisible()).toBe(true);
    await page.clock.resume();
    await deleted.getByRole('button', { name: 'Undo' }).click();
    await deleted.waitFor({ state: 'detached' });
    await expect.poll(() => heading.textContent()).toBe('My Wishlist : 2');
    await remove(TITLES[1]!).waitFor();

    // A server that fails: 'Error!' / 'Failed to delete blog', and the row stays.
    browsers.allow(/status of 500/, /wishlist delete answered 500/);
    await page.route('**/api/wishlist/*', (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, json: { message: 'boom' } }) : route.continue()));
    await remove(TITLES[1]!).click();
    await confirm.getByRole('button', { name: 'Yes, delete it!' }).click();
    await expectDialog(page, 'Error!', 'Failed to delete blog');
    await page.getByRole('dialog').getByRole('button', { name: 'OK' }).click();
    expect(await heading.textContent()).toBe('My Wishlist : 2');
    expect(await remove(TITLES[1]!).count()).toBe(1);
    // Many page steps on a shared machine: room to wait for each, no step timed.
  }, 180_000);

  it('asks the same without JavaScript: the site’s modal, rendered by the server; Cancel keeps the row', async () => {
    browser = await browsers.open({ javaScriptEnabled: false, viewport: VIEWPORTS.phone });
    const { page, context } = browser;
    await signUp(context, server.url);
    await seedWishlist(context, server.url, blogIds[1]!);
    await page.goto(`${server.url}/wishlist`);
    await page.getByRole('button', { name: `Remove ${TITLES[1]}` }).click();
    // Without JavaScript each click is a page load: wait for the page, never assume it.
    const confirm = await expectDialog(page, 'Are you sure?', "You won't be able to revert this!");
    expect(await confirm.evaluate((d) => d.tagName === 'DIALOG' && d.classList.contains('modal') && (d as HTMLDialogElement).open)).toBe(true);
    expect(await confirm.getByText(TITLES[1]!).isVisible()).toBe(true);
    expect((await confirm.locator('a, button').allTextContents()).map((t) => t.trim())).toEqual(['Cancel', 'Yes, delete it!']);
    // (axe needs scripts; the matrix checks this server-rendered dialog: a11y-matrix.e2e.)
    await screenshot(page, 'wishlist-confirm-nojs-phone');
    await confirm.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${server.url}/wishlist`);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 1');

    await page.getByRole('button', { name: `Remove ${TITLES[1]}` }).click();
    await page.getByRole('dialog', { name: 'Are you sure?' }).getByRole('button', { name: 'Yes, delete it!' }).click();
    await page.waitForURL(`${server.url}/wishlist`);
    await expectDialog(page, 'Deleted!', 'Blog has been removed from wishlist.');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 0');
    expect(await page.getByText('No blogs in your wishlist yet!').isVisible()).toBe(true);
  });

  it('pages a long wishlist, ten at a time', async () => {
    browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page, context } = browser;
    await signUp(context, server.url);
    const ids = await seedBlogs(context, server.url, Array.from({ length: 9 }, (_, i) => ({ title: `Postcard ${i + 1}` })));
    for (const id of [...blogIds, ...ids]) await seedWishlist(context, server.url, id);
    await page.goto(`${server.url}/wishlist`);
    await waitForHydration(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('My Wishlist : 12');
    expect(await page.getByTestId('wishlist-item').count()).toBe(10);
    await screenshot(page, 'wishlist-phone');
    await page.getByRole('link', { name: 'Next »' }).click();
    await page.waitForURL(`${server.url}/wishlist?page=2`);
    await expect.poll(() => page.getByTestId('wishlist-item').count()).toBe(2);
    expect(await page.getByText('Page 2 of 2').isVisible()).toBe(true);
    // A page past the end (e.g. after removals elsewhere) falls back to the last one.
    await page.goto(`${server.url}/wishlist?page=9`);
    expect(new URL(page.url()).search).toBe('?page=2');
  });
});
