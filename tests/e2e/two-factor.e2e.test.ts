import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useServer } from '../support/server';
import { useBrowsers } from '../support/browser';
import { MESSAGES } from '~/lib/texts/messages';
import { type SignedInUser, signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, screenshot, waitForHydration } from '../support/browser';

const server = useServer();
let browser: Browser | undefined;

// A wrong code answers 401 on purpose; the browser logs that status line.
const browsers = useBrowsers({ allowed: /status of (400|401)/ });

const section = (page: Page) => page.getByTestId('two-factor');

/** Sets two-factor up on /profile as a person would; answers the app's generator and the recovery codes. */
async function enableOnProfile(page: Page, user: SignedInUser, js: boolean, shot: string) {
  await page.goto(`${server.url}/profile`);
  if (js) await waitForHydration(page);
  await section(page).getByLabel('Password', { exact: true }).fill(user.password);
  await section(page).getByRole('button', { name: MESSAGES.twoFactorEnableButton }).click();
  await section(page).getByTestId('two-factor-qr').locator('svg').waitFor();
  const secret = (await section(page).getByTestId('two-factor-secret').textContent())!.trim();
  const codes = (await section(page).getByTestId('two-factor-recovery-codes').locator('li').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await screenshot(page, `${shot}-setup`);
  // axe runs as a script in the page: only where JavaScript is on.
  if (js) expect(await axeViolations(page)).toEqual([]);
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  await section(page).getByLabel(MESSAGES.twoFactorConfirmLabel).fill(totp.generate());
  await section(page).getByRole('button', { name: MESSAGES.twoFactorConfirmButton }).click();
  await expect.poll(() => section(page).getByTestId('two-factor-status').textContent()).toBe(MESSAGES.twoFactorOnText);
  await screenshot(page, `${shot}-on`);
  return { totp, codes };
}

async function passwordStep(page: Page, user: SignedInUser, js: boolean) {
  await page.context().clearCookies();
  await page.goto(`${server.url}/login`);
  if (js) await waitForHydration(page);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: MESSAGES.logInButton }).click();
  await page.getByRole('heading', { name: MESSAGES.twoFactorCodeHeading }).waitFor();
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel(MESSAGES.twoFactorCodeLabel).fill(code);
  await page.getByRole('button', { name: MESSAGES.twoFactorCodeButton }).click();
}

describe('two-factor sign-in', () => {
  it('is set up on the profile and asks for the app code at sign-in (light theme, JavaScript)', async () => {
    browser = await browsers.open({ colorScheme: 'light' });
    const { page } = browser;
    const user = await signUp(browser.context, server.url);
    const { totp } = await enableOnProfile(page, user, true, 'two-factor-light');

    await passwordStep(page, user, true);
    await screenshot(page, 'two-factor-light-code-step');
    expect(await axeViolations(page)).toEqual([]);
    await enterCode(page, totp.generate() === '000000' ? '111111' : '000000');
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(MESSAGES.twoFactorInvalidCode);
    await page.getByTestId('feedback-dialog').getByRole('button', { name: 'OK' }).click();
    await enterCode(page, totp.generate());
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/profile`);
    expect(await page.getByTestId('profile-email').textContent()).toBe(user.email);
  });

  it('works without JavaScript, with a recovery code once (dark theme)', async () => {
    browser = await browsers.open({ colorScheme: 'dark', javaScriptEnabled: false });
    const { page } = browser;
    const user = await signUp(browser.context, server.url);
    const { codes } = await enableOnProfile(page, user, false, 'two-factor-dark');

    await passwordStep(page, user, false);
    await screenshot(page, 'two-factor-dark-code-step');
    await enterCode(page, codes[0]!);
    await page.waitForURL(`${server.url}/`);

    await passwordStep(page, user, false);
    await enterCode(page, codes[0]!);
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.twoFactorInvalidCode);
    await screenshot(page, 'two-factor-dark-code-refused');

    // Turning it off takes the password; then the password alone signs in again.
    await enterCode(page, codes[1]!);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/profile`);
    await section(page).getByLabel('Password', { exact: true }).fill(user.password);
    await section(page).getByRole('button', { name: MESSAGES.twoFactorDisableButton }).click();
    await expect.poll(() => section(page).getByTestId('two-factor-status').textContent()).toBe(MESSAGES.twoFactorOffText);
    await page.context().clearCookies();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: MESSAGES.logInButton }).click();
    await page.waitForURL(`${server.url}/`);
  });
});
