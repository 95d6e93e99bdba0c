import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { useBrowsers } from '../support/browser';
import { MESSAGES } from '~/lib/texts/messages';
import { pngImage } from '../support/images';
import { signUp } from '../support/auth';
import { axeViolations, axeViolationsOnPausedClock } from '../support/axe';
import { expectDialog } from '../support/dialogs';
import { type Browser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';

const server = useServer();
let browser: Browser | undefined;
let counter = 0;

// A refused sign-in answers 401/400 on purpose; the browser logs those status lines.
const browsers = useBrowsers({ allowed: /status of (400|401|422)/ });

const newEmail = (tag: string) => `${tag}-${++counter}-${Date.now().toString(36)}@example.com`;
const dialog = (page: Page) => page.getByTestId('feedback-dialog');
const closeDialog = (page: Page) => dialog(page).getByRole('button', { name: 'OK' }).click();

async function fillSignUp(page: Page, values: { email: string; name: string; password: string; terms?: boolean }) {
  await page.getByLabel('Email').fill(values.email);
  await page.getByLabel('Name').fill(values.name);
  await page.getByLabel('Password', { exact: true }).fill(values.password);
  if (values.terms !== false) await page.getByLabel(MESSAGES.acceptTermsLabel).check();
}

describe('sign-up', () => {
  it('shows the product’s fields, hints and rules, then signs up with a photo and goes home', async () => {
    browser = await browsers.open();
    const { page } = browser;
    await page.goto(`${server.url}/register`);
    await waitForHydration(page);
    await expect.poll(() => page.getByText(MESSAGES.emailHint).count()).toBe(1);
    expect(await page.getByText(MESSAGES.passwordHint).count()).toBe(1);
    expect(await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).count()).toBe(1);
    // No provider is configured on this server: no social button.
    expect(await page.getByText(MESSAGES.signUpWithGoogle).count()).toBe(0);
    expect(await page.locator('#main').getByRole('link', { name: MESSAGES.logIn }).getAttribute('href')).toBe('/login');

    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    expect(await page.getByTestId('terms-error').textContent()).toBe(MESSAGES.acceptTerms);

    const email = newEmail('writer');
    await fillSignUp(page, { email, name: 'Wanda Writer', password: 'weakpassword' });
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    expect(await page.getByTestId('password-error').textContent()).toBe(MESSAGES.passwordHint);

    const password = page.getByLabel('Password', { exact: true });
    await password.fill('Sunset123');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: MESSAGES.showPassword }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByRole('button', { name: MESSAGES.hidePassword }).click();
    expect(await password.getAttribute('type')).toBe('password');

    await page.getByLabel('Profile image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await pngImage(200, 200) });
    await screenshot(page, 'accounts-register-desktop-light');
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.signupSuccess);
    const menu = page.getByTestId('user-menu');
    await menu.locator('summary').click();
    expect(await page.getByTestId('user-menu-name').textContent()).toBe('Wanda Writer');
    expect(await menu.locator('summary img').getAttribute('src')).toMatch(/^\/uploads\/.+\.webp$/);
  });

  it('says clearly when the email is already registered, in a dialog and under the form', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const existing = await signUp(context, server.url);
    await context.clearCookies();
    await page.goto(`${server.url}/register`);
    await waitForHydration(page);
    await fillSignUp(page, { email: existing.email, name: 'Someone Else', password: 'Sunset123' });
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.signupErrorTitle);
    expect(await dialog(page).textContent()).toContain(MESSAGES.emailTaken);
    await closeDialog(page);
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.emailTaken);
  });
});

describe('login', () => {
  it('refuses a wrong password with the product’s dialog and the reason in red, the same as for an unknown email', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    await context.clearCookies();
    const reasons: string[] = [];
    for (const [email, password] of [[user.email, 'Wrong1234'], [newEmail('nobody'), 'Sunset123']] as const) {
      await page.goto(`${server.url}/login`);
      await waitForHydration(page);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
      await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.loginErrorTitle);
      expect(await dialog(page).textContent()).toContain(MESSAGES.loginErrorText);
      await closeDialog(page);
      const error = page.getByTestId('form-error');
      reasons.push((await error.textContent()) ?? '');
      expect(await error.evaluate((el) => getComputedStyle(el).color)).toMatch(/^(rgb|oklch|color)/);
      expect(await error.getAttribute('class')).toContain('text-error');
    }
    expect(reasons[0]).toBe(MESSAGES.invalidCredentials);
    expect(reasons[1]).toBe(reasons[0]);
  });

  it('sends an anonymous visitor from a protected page to login and back there, with the success toast', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    await context.clearCookies();
    await page.goto(`${server.url}/update-profile`);
    await page.waitForURL(`${server.url}/login?redirectTo=%2Fupdate-profile`);
    await waitForHydration(page);
    expect(await page.getByRole('link', { name: MESSAGES.forgotPassword }).getAttribute('href')).toBe('/forgot-password');
    expect(await page.getByRole('link', { name: MESSAGES.register }).getAttribute('href')).toBe('/register?redirectTo=%2Fupdate-profile');
    await screenshot(page, 'accounts-login-desktop-light');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    await page.waitForURL(`${server.url}/update-profile`);
    const toast = page.getByTestId('toasts').getByText(MESSAGES.loginSuccess);
    await expect.poll(() => toast.count()).toBe(1);
    // 1.5 s (docs/product.md#messages), then gone.
    await expect.poll(() => toast.count(), { timeout: 30_000 }).toBe(0);

    // Signed in, /login and /register lead home.
    for (const path of ['/login', '/register']) {
      await page.goto(`${server.url}${path}`);
      expect(new URL(page.url()).pathname).toBe('/');
    }
  });

  it('never returns to another site after login', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, server.url);
    await context.clearCookies();
    await page.goto(`${server.url}/login?redirectTo=${encodeURIComponent('//evil.example/phish')}`);
    await waitForHydration(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    await page.waitForURL(`${server.url}/`);
  });
});

describe('without JavaScript', () => {
  it('signs up, logs out and logs in again back to the attempted page, with the product’s messages', async () => {
    browser = await browsers.open({ javaScriptEnabled: false });
    const { page } = browser;
    const email = newEmail('nojs');
    await page.goto(`${server.url}/register`);
    await fillSignUp(page, { email, name: 'Nora Noscript', password: 'short', terms: false });
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    expect(await page.getByTestId('terms-error').textContent()).toBe(MESSAGES.acceptTerms);
    expect(await page.getByTestId('password-error').textContent()).toBe(MESSAGES.passwordHint);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await fillSignUp(page, { email, name: 'Nora Noscript', password: 'Sunset123' });
    await page.getByRole('button', { name: MESSAGES.signUp, exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.signupSuccess);
    await closeDialog(page);

    await page.getByTestId('user-menu').locator('summary').click();
    await page.getByRole('menuitem', { name: MESSAGES.logout }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.loggedOutTitle);
    expect(await dialog(page).textContent()).toContain(MESSAGES.loggedOutText);

    await page.goto(`${server.url}/addBlog`);
    await page.waitForURL(`${server.url}/login?redirectTo=%2FaddBlog`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong1234');
    await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.invalidCredentials);
    await page.getByLabel('Password', { exact: true }).fill('Sunset123');
    await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    await page.waitForURL(`${server.url}/addBlog`);
    expect(await page.getByTestId('toasts').textContent()).toContain(MESSAGES.loginSuccess);
  });
});

describe('profile', () => {
  it('reads “No user logged in.” when signed out', async () => {
    browser = await browsers.open();
    await browser.page.goto(`${server.url}/profile`);
    expect(await browser.page.getByTestId('no-user').textContent()).toBe(MESSAGES.noUserLoggedIn);
  });

  it('shows the photo, name and email, and the edit screen saves a new name and photo', async () => {
    browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page, context } = browser;
    const user = await signUp(context, server.url, { name: 'Pia Profile' });
    await page.goto(`${server.url}/profile`);
    await waitForHydration(page);
    expect(await page.getByTestId('profile-name').textContent()).toBe('Pia Profile');
    expect(await page.getByTestId('profile-email').textContent()).toBe(user.email);
    expect(await page.getByRole('img', { name: 'Photo of Pia Profile' }).getAttribute('src')).toBe('/images/default-avatar.svg');
    await screenshot(page, 'accounts-profile-phone-light');
    await page.getByRole('link', { name: MESSAGES.updateProfileLink }).click();
    await page.waitForURL(`${server.url}/update-profile`);
    await waitForHydration(page);

    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES.myProfile);
    expect(await page.getByText(MESSAGES.changePhotoHint).count()).toBe(1);
    expect(await page.getByLabel('Email').isEditable()).toBe(false);
    expect(await page.getByLabel('Email').inputValue()).toBe(user.email);
    const lastLogin = page.getByLabel('Last Login');
    expect(await lastLogin.isEditable()).toBe(false);
    // The viewer's own format, not the server's UTC placeholder.
    const iso = (await lastLogin.getAttribute('data-iso'))!;
    expect(Date.now() - Date.parse(iso)).toBeLessThan(60_000);
    expect(await lastLogin.inputValue()).toBe(await page.evaluate((at) => new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), iso));
    expect(await page.getByLabel(MESSAGES.change).getAttribute('accept')).toMatch(/^image\//);

    await page.getByLabel('Full Name').fill('Pia Renamed');
    await page.getByLabel(MESSAGES.change).setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: await pngImage(300, 300) });
    // Holds the save for a moment so the in-progress state can be seen.
    await page.route('**/update-profile*', async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    // The page's clock stands still, so the 1.5 s dialog can be read; the save itself is the server's.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    await page.getByRole('button', { name: MESSAGES.saveChanges }).click();
    const saving = page.getByRole('button', { name: MESSAGES.saving });
    await expect.poll(() => saving.count()).toBe(1);
    expect(await saving.isDisabled()).toBe(true);
    // The product's dialog (docs/product.md#messages), for 1.5 s like the other success popups.
    const saved = await expectDialog(page, 'Updated!', 'Profile updated successfully!');
    expect(await saved.evaluate((d) => d.matches(':modal'))).toBe(true);
    await screenshot(page, 'accounts-update-profile-phone-light');
    const checked = await axeViolationsOnPausedClock(page);
    expect(checked.violations).toEqual([]);
    await page.clock.runFor(1400 - checked.advancedMs);
    expect(await saved.isVisible()).toBe(true);
    await page.clock.runFor(200);
    await saved.waitFor({ state: 'detached' });
    await page.clock.resume();
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Pia Renamed');
    await page.getByTestId('user-menu').locator('summary').click();
    expect(await page.getByTestId('user-menu-name').textContent()).toBe('Pia Renamed');
    await page.goto(`${server.url}/profile`);
    expect(await page.getByTestId('profile-name').textContent()).toBe('Pia Renamed');
    expect(await page.getByRole('img', { name: 'Photo of Pia Renamed' }).getAttribute('src')).toMatch(/^\/uploads\/.+\.webp$/);
    // Many page steps on a shared machine: room to wait for each, no step timed.
  }, 180_000);

  it('says “Updated!” / “Profile updated successfully!” without JavaScript too', async () => {
    browser = await browsers.open({ javaScriptEnabled: false, viewport: VIEWPORTS.desktop, colorScheme: 'dark' });
    const { page, context } = browser;
    await signUp(context, server.url, { name: 'Nora Noscript' });
    await page.goto(`${server.url}/update-profile`);
    await page.getByLabel('Full Name').fill('Nora Renamed');
    await page.getByRole('button', { name: MESSAGES.saveChanges }).click();
    await page.waitForURL(`${server.url}/update-profile`);
    await expectDialog(page, 'Updated!', 'Profile updated successfully!');
    expect(await page.getByTestId('toasts').textContent()).toBe('');
    expect(await page.getByLabel('Full Name').inputValue()).toBe('Nora Renamed');
    await screenshot(page, 'accounts-update-profile-saved-desktop-dark');
  });

  it('says “Error” / “Failed to update profile” when the picture is not an image', async () => {
    browser = await browsers.open({ colorScheme: 'dark' });
    const { page, context } = browser;
    await signUp(context, server.url, { name: 'Fay Failure' });
    await page.goto(`${server.url}/update-profile`);
    await waitForHydration(page);
    await page.getByLabel(MESSAGES.change).setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
    await page.getByRole('button', { name: MESSAGES.saveChanges }).click();
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.profileErrorTitle);
    expect(await dialog(page).textContent()).toContain(MESSAGES.profileErrorText);
    await screenshot(page, 'accounts-update-profile-error-desktop-dark');
    await closeDialog(page);
    browser.errors.splice(0, browser.errors.length, ...browser.errors.filter((e) => !e.includes('status of 415')));
  });
});

describe('logout', () => {
  it('ends the session on the server and says “Logged Out”', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, server.url);
    const before = (await context.cookies()).find((c) => c.name.endsWith('session_token'))!;
    expect(before.httpOnly).toBe(true);
    expect(before.sameSite).toBe('Lax');
    await page.goto(`${server.url}/allblogs`);
    await waitForHydration(page);
    await page.getByTestId('user-menu').locator('summary').click();
    await page.getByRole('menuitem', { name: MESSAGES.logout }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.loggedOutTitle);
    expect(await page.getByRole('link', { name: MESSAGES.logIn }).count()).toBeGreaterThan(0);
    // The old cookie no longer works, even when replayed.
    const replay = await fetch(`${server.url}/api/jwt`, {
      method: 'POST',
      headers: { cookie: `${before.name}=${before.value}`, origin: server.url, 'content-type': 'application/json' },
      body: '{"email":"x@example.com"}',
    });
    expect(replay.status).toBe(401);
  });
});

describe('looks', () => {
  it.each([
    ['phone', 'light'],
    ['phone', 'dark'],
    ['desktop', 'dark'],
  ] as const)('the account screens on a %s in %s pass axe', async (viewport, colorScheme) => {
    browser = await browsers.open({ viewport: VIEWPORTS[viewport], colorScheme });
    const { page, context } = browser;
    for (const path of ['/login', '/register', '/forgot-password', '/reset-password?token=abc']) {
      await page.goto(`${server.url}${path}`);
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `accounts${path.split('?')[0]!.replace('/', '-')}-${viewport}-${colorScheme}`);
    }
    await signUp(context, server.url, { name: 'Axel Axe' });
    for (const path of ['/profile', '/update-profile']) {
      await page.goto(`${server.url}${path}`);
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `accounts${path.replace('/', '-')}-${viewport}-${colorScheme}`);
    }
  });
});
