import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { type Browser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { createOidcProvider, type LocalOidcProvider, PICTURE_PATH } from '../support/oidc-issuer';
import { type RunningServer, startServer } from '../support/server';

const PROVIDER = 'Sunrise ID';
let oidc: LocalOidcProvider;
let server: RunningServer;
let browser: Browser | undefined;
let counter = 0;

beforeAll(async () => {
  oidc = await createOidcProvider({ 'sam@sunrise.test': { email: 'sam@sunrise.test', name: 'Sam Sunrise', picture: PICTURE_PATH } });
  server = await startServer({ OIDC_ISSUER: oidc.issuer, OIDC_CLIENT_ID: oidc.clientId, OIDC_CLIENT_SECRET: oidc.clientSecret, OIDC_NAME: PROVIDER });
  await oidc.start(`${server.url}/api/auth/callback/oidc`);
});
afterAll(async () => {
  await server?.stop();
  await oidc?.stop();
});
const browsers = useBrowsers();

const dialog = (page: Page) => page.getByTestId('feedback-dialog');
const logInButton = (page: Page) => page.getByRole('link', { name: MESSAGES.logInWith(PROVIDER) });
const newEmail = () => `social-${++counter}-${Date.now().toString(36)}@sunrise.test`;

async function signInAtProvider(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function openPopup(page: Page): Promise<Page> {
  const popup = page.context().waitForEvent('page');
  await logInButton(page).click();
  const opened = await popup;
  await opened.waitForLoadState();
  return opened;
}

describe('social login with an OpenID Connect provider', () => {
  it('offers the provider by its configured name, on login and sign-up only', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    expect(await logInButton(page).count()).toBe(1);
    expect(await page.getByText(MESSAGES.logInWithGoogle).count()).toBe(0);
    await page.goto(`${server.url}/register`);
    expect(await page.getByRole('link', { name: MESSAGES.signUpWith(PROVIDER) }).count()).toBe(1);
  });

  it('signs in through a 500×600 popup and returns to the attempted page', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(`${server.url}/addBlog`);
    await page.waitForURL(`${server.url}/login?redirectTo=%2FaddBlog`);
    await waitForHydration(page);
    await screenshot(page, 'accounts-login-social-desktop-light');
    const popup = await openPopup(page);
    expect(new URL(popup.url()).origin).toBe(oidc.issuer);
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 600]);
    await signInAtProvider(popup, 'sam@sunrise.test');
    await page.waitForURL(`${server.url}/addBlog`);
    await expect.poll(() => page.getByTestId('toasts').getByText(MESSAGES.loginSuccess).count()).toBe(1);
    expect(popup.isClosed()).toBe(true);
    await page.getByTestId('user-menu').locator('summary').click();
    expect(await page.getByTestId('user-menu-name').textContent()).toBe('Sam Sunrise');
    expect(await page.getByTestId('user-menu-email').textContent()).toBe('sam@sunrise.test');
    // The first sign-in saved the provider's name, email and photo as the user record.
    await page.goto(`${server.url}/profile`);
    const photo = page.getByRole('img', { name: 'Photo of Sam Sunrise' });
    expect(await photo.getAttribute('src')).toBe(`${oidc.issuer}${PICTURE_PATH}`);
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  it('joins the existing account of the same verified email, whose stored profile wins', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const email = newEmail();
    await signUp(context, server.url, { email, name: 'Linda Local' });
    const earlier = (await context.cookies()).find((c) => c.name.endsWith('session_token'))!;
    await context.clearCookies();
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    const popup = await openPopup(page);
    await signInAtProvider(popup, email);
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('user-menu').locator('summary').click();
    expect(await page.getByTestId('user-menu-name').textContent()).toBe('Linda Local');
    // One account: the password still signs in to it.
    const res = await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email, password: 'Sunset123' }, headers: { origin: server.url } });
    expect(res.ok()).toBe(true);
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe('Linda Local');
    // Sessions from before the link are over: whoever registered the address first is signed out.
    const replay = await fetch(`${server.url}/api/update/${email}`, { headers: { cookie: `${earlier.name}=${earlier.value}` } });
    expect(replay.status).toBe(401);
  });

  it('says so kindly when the popup is closed before signing in', async () => {
    browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    const popup = await openPopup(page);
    await popup.close();
    await expect.poll(() => dialog(page).getByRole('heading').textContent(), { timeout: 30_000 }).toBe(MESSAGES.loginErrorTitle);
    expect(await dialog(page).textContent()).toContain(MESSAGES.socialErrors['popup-closed-by-user']);
    await screenshot(page, 'accounts-social-closed-phone-light');
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('turns a provider error into a friendly message', async () => {
    browser = await browsers.open({ colorScheme: 'dark' });
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    const popup = await openPopup(page);
    await popup.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.loginErrorTitle);
    expect(await dialog(page).textContent()).toContain(MESSAGES.socialErrors['popup-closed-by-user']);
    expect(await dialog(page).textContent()).not.toContain('access_denied');
  });

  it('falls back to a full-page redirect when the popup is blocked', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto(`${server.url}/wishList`);
    await page.waitForURL(`${server.url}/login?redirectTo=%2FwishList`);
    await waitForHydration(page);
    await logInButton(page).click();
    await page.waitForURL((url) => url.origin === oidc.issuer);
    await signInAtProvider(page, newEmail());
    await page.waitForURL(`${server.url}/wishList`);
    await expect.poll(() => page.getByTestId('toasts').getByText(MESSAGES.loginSuccess).count()).toBe(1);
  });

  it('works without JavaScript, and shows a provider error under the form', async () => {
    browser = await browsers.open({ javaScriptEnabled: false });
    const { page } = browser;
    await page.goto(`${server.url}/login`);
    await logInButton(page).click();
    await page.waitForURL((url) => url.origin === oidc.issuer);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.socialErrors['popup-closed-by-user']);

    await logInButton(page).click();
    await page.waitForURL((url) => url.origin === oidc.issuer);
    const email = newEmail();
    await signInAtProvider(page, email);
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByTestId('toasts').textContent()).toContain(MESSAGES.loginSuccess);
    expect(await page.getByTestId('user-menu-email').textContent()).toBe(email);
  });
});

describe('Google sign-in', () => {
  let google: RunningServer;
  beforeAll(async () => {
    google = await startServer({ GOOGLE_CLIENT_ID: 'afterglow-e2e.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 'not-a-real-secret' });
  });
  afterAll(async () => google?.stop());

  it('shows the Google buttons when configured and sends the visitor to Google with our callback', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(`${google.url}/login`);
    await waitForHydration(page);
    const href = await page.getByRole('link', { name: MESSAGES.logInWithGoogle }).getAttribute('href');
    expect(href).toBe('/login?provider=google&redirectTo=%2F');
    await page.goto(`${google.url}/register`);
    expect(await page.getByRole('link', { name: MESSAGES.signUpWithGoogle }).count()).toBe(1);
    // Not followed: the test talks to nothing beyond 127.0.0.1.
    const start = await fetch(`${google.url}${href}`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const target = new URL(start.headers.get('location')!);
    expect(target.origin).toBe('https://accounts.google.com');
    expect(target.searchParams.get('client_id')).toBe('afterglow-e2e.apps.googleusercontent.com');
    expect(target.searchParams.get('redirect_uri')).toBe(`${google.url}/api/auth/callback/google`);
    expect(start.headers.getSetCookie().some((c) => /HttpOnly/i.test(c))).toBe(true);
  });
});
