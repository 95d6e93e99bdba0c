import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { refused, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { freePort, useServer } from '../support/server';

// A browser refuses a passkey on a bare IP address: the site is opened as localhost, its PUBLIC_URL.
let base = '';
const server = useServer(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  return { PORT: String(port), PUBLIC_URL: base };
});
const browsers = useBrowsers();

/** Chromium's virtual authenticator (DevTools WebAuthn domain): a platform passkey that says yes at once. */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const credentials = async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}

async function passkeySignIn(page: Page) {
  await page.context().clearCookies();
  await page.goto(`${base}/login`);
  await waitForHydration(page);
  await page.getByRole('button', { name: MESSAGES.passkeySignInButton }).click();
}

describe('passkeys', () => {
  it('are added on /account, sign in without a password, and once removed sign in no more', async () => {
    expect(server.url).toBeTruthy();
    const browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page } = browser;
    const authenticator = await addAuthenticator(page);
    const user = await signUp(browser.context, base, { name: 'Key Holder' });

    await page.goto(`${base}/account`);
    await waitForHydration(page);
    const section = page.getByTestId('passkeys');
    expect(await section.getByTestId('passkeys-none').textContent()).toBe(MESSAGES.passkeysNone);
    await section.getByLabel(MESSAGES.passkeyNameLabel).fill('Work laptop');
    await section.getByRole('button', { name: MESSAGES.passkeyAddButton }).click();
    await expect.poll(() => section.getByTestId('passkey-message').textContent()).toBe(MESSAGES.passkeyAdded);
    await expect.poll(() => section.getByTestId('passkey-list').locator('li').count()).toBe(1);
    expect(await section.getByTestId('passkey-list').textContent()).toContain('Work laptop');
    // The authenticator holds one discoverable credential for this site.
    const [credential] = await authenticator.credentials();
    expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `passkeys-account-${width}`);
    }
    expect(await axeViolations(page)).toEqual([]);
    // The theme is chosen when the page loads.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await waitForHydration(page);
    await screenshot(page, 'passkeys-account-desktop-dark');
    expect(await axeViolations(page)).toEqual([]);

    // Signed out: the passkey alone signs in, no email, no password.
    await passkeySignIn(page);
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/account`);
    expect(await page.getByTestId('account-email').textContent()).toBe(user.email);
    await screenshot(page, 'passkeys-signed-in');

    // Removed: the same credential no longer opens the account.
    await waitForHydration(page);
    await page.getByRole('button', { name: MESSAGES.passkeyRemoveButton('Work laptop') }).click();
    await expect.poll(() => page.getByTestId('passkeys-none').isVisible()).toBe(true);
    browsers.allow(refused(400, 401, 404));
    await passkeySignIn(page);
    await expect.poll(() => page.getByTestId('passkey-sign-in').getByRole('alert').textContent()).toBe(MESSAGES.passkeySignInFailed);
    await screenshot(page, 'passkeys-sign-in-refused');
    expect(await page.context().cookies()).not.toContainEqual(expect.objectContaining({ name: expect.stringContaining('session_token') }));
  });

  it('cannot be added without a session, nor removed from another account', async () => {
    const anonymous = await fetch(`${base}/api/auth/passkey/generate-register-options`);
    expect(anonymous.status).toBe(401);
    const browser = await browsers.open();
    await signUp(browser.context, base);
    const res = await browser.context.request.post(`${base}/api/auth/passkey/delete-passkey`, { data: { id: 'not-mine' }, headers: { origin: base } });
    expect(res.ok()).toBe(false);
  });
});
