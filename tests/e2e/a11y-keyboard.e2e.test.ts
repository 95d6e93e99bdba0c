import type { FileChooser, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSharedBrowser } from '../support/browser';
import { useServer } from '../support/server';
import { jpegImage } from '../support/images';
import { signUp } from '../support/auth';
import { VIEWPORTS, waitForHydration } from '../support/browser';
import { seedBlogs } from '../support/home-seed';

/**
 * Accessibility (docs/decisions/014): every flow usable by keyboard alone, with a visible focus indicator at every stop.
 * The visitor only presses keys (Tab, Shift+Tab, Enter, Space, Escape, typing): no click, no
 * fill, no mouse. The only address typed is the home page's.
 */

const OTHER_TITLE = 'Lanterns over the old harbour';
const MY_TITLE = 'Typed without a mouse';

const server = useServer();
const browser = useSharedBrowser();

beforeAll(async () => {
  const writer = await browser.newContext();
  await signUp(writer, server.url, { name: 'Harbour Writer' });
  await seedBlogs(writer, server.url, [{ title: OTHER_TITLE }]);
  await writer.close();
});

/**
 * What the focused element looks like, or why its focus cannot be seen: it must match
 * :focus-visible, draw an outline that is not transparent (on the element, or on the label of a
 * visually hidden input), and not sit under the sticky navigation bar (WCAG 2.4.7, 2.4.11).
 */
function focusProblem(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing is focused';
    const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    if (!el.matches(':focus-visible')) return `${name} is focused but not :focus-visible`;
    const box = el.getBoundingClientRect();
    const shown = box.width <= 2 || box.height <= 2 ? (el.closest('label') ?? el.parentElement ?? el) : el;
    const style = getComputedStyle(shown);
    const transparent = /transparent|,\s*0\)$|\/\s*0\)$/.test(style.outlineColor);
    if (style.outlineStyle === 'none' || parseFloat(style.outlineWidth) < 1 || transparent) {
      return `${name} shows no focus outline (${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor})`;
    }
    const header = document.querySelector('header.navbar');
    if (header && !header.contains(shown)) {
      const rect = shown.getBoundingClientRect();
      const on = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      if (on && header.contains(on)) return `${name} is hidden under the sticky navigation bar`;
    }
    return null;
  });
}

const isFocused = (target: Locator) => target.evaluateAll((els) => els.some((el) => el === document.activeElement));

/** Presses Tab (or Shift+Tab) until `target` has focus, checking the focus indicator at every stop. */
async function tabTo(page: Page, target: Locator, { back = false, max = 120 } = {}) {
  await target.waitFor();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    expect(await focusProblem(page)).toBeNull();
    if (await isFocused(target)) return;
  }
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached ${target}`);
}

/** A dialog (the product's popups) answered from the keyboard: focus is in it, Enter presses OK. */
async function answerDialog(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.waitFor();
  // A timed popup may close by itself first; pressing Enter then lands nowhere harmful.
  if (await isFocused(dialog.getByRole('button'))) await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden' });
}

describe('a keyboard-only visitor', () => {
  it('signs up, writes a blog with a picture, comments on, likes and wishlists another blog, and signs out', async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    try {
      await page.goto(server.url);
      await waitForHydration(page);

      // The skip link comes first and jumps over the navigation.
      await page.keyboard.press('Tab');
      expect(await focusProblem(page)).toBeNull();
      expect(await isFocused(page.getByRole('link', { name: 'Skip to content' }))).toBe(true);

      // Sign up: Log In, then Register.
      await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Log In' }));
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/login$/);
      await tabTo(page, page.getByRole('link', { name: 'Register' }));
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/register$/);
      const email = `keys-${Date.now().toString(36)}@example.com`;
      await tabTo(page, page.getByLabel('Email'));
      await page.keyboard.type(email);
      await tabTo(page, page.getByLabel('Name'));
      await page.keyboard.type('Kay Board');
      await tabTo(page, page.getByLabel('Password', { exact: true }));
      await page.keyboard.type('Sunset123');
      await tabTo(page, page.getByRole('checkbox'));
      await page.keyboard.press('Space');
      expect(await page.getByRole('checkbox').isChecked()).toBe(true);
      await tabTo(page, page.getByRole('button', { name: 'Sign Up', exact: true }));
      await page.keyboard.press('Enter');
      await page.waitForURL(`${server.url}/`);
      await answerDialog(page, "You've Signed Up successfully!");

      // Write a blog, picture included: Space on the file field opens the file chooser.
      await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Add blogs' }));
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/addBlog$/);
      await waitForHydration(page);
      // The writing canvas: the title and the body first, then the post's other fields (docs/decisions/070).
      await tabTo(page, page.getByLabel('Title'));
      await page.keyboard.type(MY_TITLE);
      await tabTo(page, page.getByLabel('Long description'));
      await page.keyboard.type('Tab, type, **Enter**.');
      await tabTo(page, page.getByLabel('Category'));
      await page.keyboard.type('Tech');
      expect(await page.getByLabel('Category').inputValue()).toBe('Technology');
      await tabTo(page, page.getByLabel('Type'));
      await page.keyboard.type('Mini');
      expect(await page.getByLabel('Type').inputValue()).toBe('Mini blog');
      await tabTo(page, page.getByLabel('Short description'));
      await page.keyboard.type('Written with the keyboard alone.');
      await tabTo(page, page.getByLabel('Image'));
      // Space on the focused file input opens the chooser; on a loaded machine a press can land
      // before the page settles, so the same key is tried again while the input has focus.
      let chooser: FileChooser | undefined;
      for (let attempt = 0; !chooser && attempt < 3; attempt++) {
        if (!(await isFocused(page.getByLabel('Image')))) await tabTo(page, page.getByLabel('Image'), { back: true });
        [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10_000 }).catch(() => undefined), page.keyboard.press('Space')]);
      }
      if (!chooser) throw new Error('Space on the focused Image field never opened the file chooser');
      await chooser.setFiles({ name: 'keys.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(800, 500) });
      await tabTo(page, page.getByLabel('Availability'));
      await page.keyboard.type('Pub');
      expect(await page.getByLabel('Availability').inputValue()).toBe('Public');
      await tabTo(page, page.getByRole('button', { name: 'Add Blog', exact: true }));
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/allblogs$/);
      // A routine save is a short toast, not a dialog to answer.
      await page.getByTestId('toasts').getByText('Your Blog added successfully!').waitFor();
      await page.getByRole('heading', { name: MY_TITLE }).waitFor();

      // Another writer's blog: open it, like it, comment on it.
      await tabTo(page, page.getByRole('link', { name: OTHER_TITLE, exact: true }));
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: OTHER_TITLE }).first().waitFor();
      await waitForHydration(page);
      const like = page.getByTestId('like-button');
      await tabTo(page, like);
      await page.keyboard.press('Enter');
      await page.getByTestId('toasts').getByText('Liked successfully!').waitFor();
      expect(await like.getAttribute('aria-pressed')).toBe('true');
      await tabTo(page, page.getByRole('textbox', { name: 'Comment' }));
      await page.keyboard.type('Read and answered without touching the mouse.');
      await tabTo(page, page.getByRole('button', { name: 'Post Comment' }));
      await page.keyboard.press('Enter');
      await page.getByTestId('comments').getByText('Read and answered without touching the mouse.').waitFor();

      // Back up to the navigation (Shift+Tab) and add that blog to the wishlist from All blogs.
      await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'All Blogs' }), { back: true });
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/allblogs$/);
      await tabTo(page, page.getByRole('button', { name: `Add to Wishlist: ${OTHER_TITLE}` }));
      await page.keyboard.press('Enter');
      await page.getByTestId('toasts').getByText('Added to wishlist!').waitFor();
      await tabTo(page, page.getByRole('banner').getByRole('link', { name: 'Wishlist' }), { back: true });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'My Wishlist : 1' }).waitFor();
      expect(await page.getByTestId('wishlist-item').getByRole('heading', { name: OTHER_TITLE }).count()).toBe(1);

      // Sign out through the account menu.
      const account = page.getByTestId('user-menu').locator('summary');
      await tabTo(page, account);
      await page.keyboard.press('Enter');
      await tabTo(page, page.getByRole('menuitem', { name: 'Logout' }));
      await page.keyboard.press('Enter');
      await answerDialog(page, 'Logged Out');
      await page.getByRole('banner').getByRole('link', { name: 'Log In' }).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
