import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { type Browser, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { useServer } from '../support/server';

const server = useServer();
// A wrong password answers 401 on the log-in form on purpose; the browser logs that status line.
const browsers = useBrowsers({ allowed: /status of (400|401)/ });

/** Both widths of the page as it stands, looked at and checked by axe. */
async function lookAt(page: Page, name: string) {
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await screenshot(page, `${name}-${width}`);
  }
  expect(await axeViolations(page)).toEqual([]);
}

async function logIn(page: Page, email: string, password: string) {
  await page.context().clearCookies();
  await page.goto(`${server.url}/login`);
  await waitForHydration(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: MESSAGES.logInButton }).click();
}

describe('the account', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps a bio and links shown on the author page, and changes the password (${colorScheme})`, async () => {
      const browser: Browser = await browsers.open({ colorScheme });
      const { page } = browser;
      const user = await signUp(browser.context, server.url, { name: `Dusk Writer ${colorScheme}` });

      await page.goto(`${server.url}/update-profile`);
      await waitForHydration(page);
      await page.getByLabel('Bio').fill('I write about the hour after sunset.\nAnd about tea.');
      await page.getByLabel('Website').fill('https://dusk.example');
      await page.getByLabel('Links').fill('https://social.example/@dusk\nhttps://code.example/dusk');
      await lookAt(page, `account-edit-profile-${colorScheme}`);
      await page.getByRole('button', { name: MESSAGES.saveChanges }).click();
      await page.getByText(MESSAGES.profileSavedTitle).first().waitFor();

      await page.goto(`${server.url}/profile`);
      await page.getByRole('link', { name: 'My blogs' }).click();
      await page.getByTestId('author-bio').waitFor();
      expect(await page.getByTestId('author-bio').innerText()).toBe('I write about the hour after sunset.\nAnd about tea.');
      expect(await page.getByTestId('author-followers').innerText()).toBe('0 followers');
      const links = page.getByTestId('author-links').getByRole('link');
      expect(await links.evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('rel')]))).toEqual([
        ['https://dusk.example', 'nofollow ugc me'],
        ['https://social.example/@dusk', 'nofollow ugc me'],
        ['https://code.example/dusk', 'nofollow ugc me'],
      ]);
      await lookAt(page, `account-author-page-${colorScheme}`);

      await page.goto(`${server.url}/profile`);
      await page.getByRole('link', { name: MESSAGES.accountSettings }).click();
      await page.getByRole('heading', { name: MESSAGES.changePasswordTitle }).waitFor();
      await waitForHydration(page);
      const form = page.getByTestId('change-password');
      await form.getByLabel(MESSAGES.currentPasswordLabel, { exact: true }).fill(user.password);
      await form.getByLabel(MESSAGES.newPasswordLabel, { exact: true }).fill('Evening456');
      await lookAt(page, `account-settings-${colorScheme}`);
      await form.getByRole('button', { name: MESSAGES.changePasswordTitle }).click();
      await page.getByText(MESSAGES.passwordChanged).first().waitFor();

      await logIn(page, user.email, user.password);
      await page.getByText(MESSAGES.invalidCredentials).first().waitFor();
      await logIn(page, user.email, 'Evening456');
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    });
  }

  it('deletes the account from Account settings once the box is ticked, and signs the browser out', async () => {
    const browser: Browser = await browsers.open({ colorScheme: 'light' });
    const { page } = browser;
    const user = await signUp(browser.context, server.url);
    await page.goto(`${server.url}/account`);
    await waitForHydration(page);
    const form = page.getByTestId('delete-account');
    expect(await page.getByTestId('export-before-you-go').innerText()).toBe(MESSAGES.exportBeforeYouGo);
    expect(await form.getByRole('link').count()).toBe(0);
    await form.getByLabel(MESSAGES.currentPasswordLabel, { exact: true }).fill(user.password);
    await form.getByRole('button', { name: MESSAGES.deleteAccountButton }).click();
    await page.getByText(MESSAGES.confirmDeleteRequired).waitFor();
    await form.getByLabel(MESSAGES.currentPasswordLabel, { exact: true }).fill(user.password);
    await form.getByLabel(MESSAGES.deleteAccountConfirm).check();
    await form.getByRole('button', { name: MESSAGES.deleteAccountButton }).click();
    await page.getByText(MESSAGES.accountDeletedText).first().waitFor();
    await page.goto(`${server.url}/account`);
    await page.getByTestId('no-user').waitFor();
    await logIn(page, user.email, user.password);
    await page.getByText(MESSAGES.invalidCredentials).first().waitFor();
  });
});
