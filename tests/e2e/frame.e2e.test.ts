import { describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { type Browser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';

const server = useServer();
let browser: Browser | undefined;

// A 404 page's own status line is the one console error a browser logs by design.
const browsers = useBrowsers({ allowed: /status of 404 \(Not Found\)/ });

const NAV = [
  ['Home', '/'],
  ['All Blogs', '/allblogs'],
  ['Featured Blogs', '/featuredBlogs'],
  ['Add blogs', '/login?redirectTo=%2FaddBlog'],
  ['Wishlist', '/login?redirectTo=%2FwishList'],
] as const;

describe('the page frame', () => {
  it('has a sticky navigation whose five links lead where they should', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(`${server.url}/allblogs`);
    await waitForHydration(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(NAV.map(([label]) => label));
    expect(await page.locator('header').evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    await expect.poll(() => page.getByRole('link', { name: 'Log In' }).getAttribute('href')).toBe('/login');
    for (const [label, path] of NAV) {
      await page.goto(`${server.url}/allblogs`);
      await waitForHydration(page);
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL((url) => url.pathname + url.search === path);
    }
    await screenshot(page, 'frame-desktop-light');
  });

  it('keeps the theme across reloads, applied before the first paint', async () => {
    browser = await browsers.open({ colorScheme: 'light' });
    const { page } = browser;
    // Records the theme at the moment <body> is created, i.e. before anything is painted.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.body) {
          (window as unknown as { themeAtBody: string | null }).themeAtBody = document.documentElement.getAttribute('data-theme');
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(server.url);
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as { themeAtBody: string }).themeAtBody)).toBe('afterglow');
    await page.getByTestId('theme-toggle').click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.locator('html').getAttribute('data-theme')).toBe('sunset');
    await page.reload();
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as unknown as { themeAtBody: string }).themeAtBody)).toBe('sunset');
    await screenshot(page, 'frame-desktop-dark');
    await page.getByTestId('theme-toggle').click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  it('follows the visitor’s OS preference when nothing is stored', async () => {
    browser = await browsers.open({ colorScheme: 'dark' });
    await browser.page.goto(server.url);
    expect(await browser.page.locator('html').getAttribute('data-theme')).toBe('sunset');
  });

  it('collapses the links into a menu on a phone that closes when a link is chosen', async () => {
    browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page } = browser;
    await page.goto(server.url);
    await waitForHydration(page);
    const desktopNav = page.locator('header nav.navbar-center');
    expect(await desktopNav.isVisible()).toBe(false);
    const menu = page.getByTestId('mobile-menu');
    await menu.getByLabel('Menu').click();
    expect(await menu.getAttribute('open')).not.toBeNull();
    await screenshot(page, 'frame-phone-menu-open');
    await menu.getByRole('link', { name: 'Featured Blogs' }).click();
    await page.waitForURL(`${server.url}/featuredBlogs`);
    expect(await menu.getAttribute('open')).toBeNull();
  });

  it('shows the avatar dropdown when signed in, by mouse and by keyboard', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url, { name: 'Dusk Reader' });
    await page.goto(server.url);
    await waitForHydration(page);
    expect(await page.getByRole('link', { name: 'Log In' }).count()).toBe(0);
    const menu = page.getByTestId('user-menu');
    expect(await menu.locator('summary img').getAttribute('src')).toBe('/images/default-avatar.svg');

    await menu.locator('summary').click();
    expect(await page.getByTestId('user-menu-name').textContent()).toBe('Dusk Reader');
    expect(await page.getByTestId('user-menu-email').textContent()).toBe(user.email);
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['Profile', 'Logout']);
    await screenshot(page, 'frame-user-menu');
    // An outside press closes it.
    await page.mouse.click(5, 600);
    expect(await menu.getAttribute('open')).toBeNull();

    // Keyboard: Enter opens, Escape closes and gives focus back to the toggle.
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('open')).not.toBeNull();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('open')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');

    // Choosing an item closes it and goes there.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/profile`);
    expect(await menu.getAttribute('open')).toBeNull();

    // The footer carries the wishlist link with the email.
    const footerLinks = await page.getByRole('navigation', { name: 'Footer' }).getByRole('link').evaluateAll((links) =>
      links.map((a) => a.getAttribute('href')),
    );
    expect(footerLinks).toContain(`/wishList/${encodeURIComponent(user.email)}`);

    // Logout ends the session.
    await menu.locator('summary').click();
    await menu.getByRole('menuitem', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const dialog = page.getByRole('dialog', { name: 'Logged Out' });
    await dialog.waitFor();
    expect(await dialog.getByText('You have been successfully logged out').isVisible()).toBe(true);
    await page.waitForTimeout(400); // let the opening animation finish before the picture
    await screenshot(page, 'logged-out-dialog');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Log In' }).waitFor();
    // The flash is shown once: a reload does not bring it back.
    await page.reload();
    await waitForHydration(page);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('has a footer with its links, the description and the current year', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(server.url);
    const footer = page.locator('footer');
    const hrefs = await footer.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/', '/allblogs', '/featureBlog', '/addBlog', '/feed.xml']);
    expect(await page.getByTestId('footer-description').textContent()).toMatch(/share and read various kinds of blogs/);
    expect(await page.getByTestId('footer-year').textContent()).toBe(String(new Date().getFullYear()));
    await footer.getByRole('link', { name: 'Featured Blogs' }).click();
    await page.waitForURL(`${server.url}/featuredBlogs`);
  });

  it('shows the 404 page with status 404 for unknown routes', async () => {
    browser = await browsers.open();
    const { page } = browser;
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: 'No Page found!' }).waitFor();
    expect(await page.getByText('Opps!! No Content Found With the route.').isVisible()).toBe(true);
    expect(await page.locator('main img').getAttribute('src')).toBe('/images/error.svg');
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Back To Home' }).click();
    await page.waitForURL(`${server.url}/`);
  });

  it('redirects /featureBlog to /featuredBlogs with a 301', async () => {
    const res = await fetch(`${server.url}/featureBlog`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/featuredBlogs');
  });

  it('treats every wishlist spelling as one protected screen', async () => {
    for (const path of ['/wishList', '/wishlist', '/WISHLIST', '/wishList/someone%40example.com']) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(302);
      expect(res.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it('serves hashed assets as immutable, and a favicon and manifest', async () => {
    const html = await (await fetch(server.url)).text();
    const asset = html.match(/href="(\/assets\/[^"]+\.css)"/)?.[1];
    expect(asset).toBeDefined();
    const res = await fetch(`${server.url}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect((await fetch(`${server.url}/favicon.svg`)).status).toBe(200);
    expect(((await (await fetch(`${server.url}/site.webmanifest`)).json()) as { name: string }).name).toBe('Afterglow');
  });
});
