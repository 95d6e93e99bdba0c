import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAISY_THEME } from '~/lib/page/theme';
import { MESSAGES } from '~/lib/texts/messages';
import { writeZip } from '../support/archives';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { finiteAnimationsDone, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { freePort, type RunningServer, startServer } from '../support/server';
import { siteGhostArchive } from '../support/site-import-archives';
import { type LocalSmtpServer, mailText, startSmtpServer } from '../support/smtp-server';
import { tempDirs } from '../support/temp-dirs';

let smtp: LocalSmtpServer;
let server: RunningServer;
/** PUBLIC_URL, so the mailed link opens in the browser. */
let base: string;
const dirs = tempDirs();

beforeAll(async () => {
  smtp = await startSmtpServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), PUBLIC_URL: base, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <site@afterglow.test>' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  dirs.removeAll();
});
const browsers = useBrowsers({ allowed: /the server responded with a status of 404 / });

const GWEN = { id: 'gwen-1', name: 'Gwen Ghost', email: 'gwen@old.example' };
const HAL = { id: 'hal-2', name: 'Hal Harbour', email: 'hal@old.example' };

/**
 * The operator's command line (`npm run admin`, `npm run import`) on the server's own data. Not
 * blocking: the SMTP server the command's jobs mail to lives in this process.
 */
async function operator(script: string, args: string[]): Promise<string> {
  const env = { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn', PUBLIC_URL: base, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <site@afterglow.test>' };
  return (await promisify(execFile)(process.execPath, [script, ...args], { env, encoding: 'utf8' })).stdout;
}
const grantAdmin = (email: string) => operator('scripts/admin.js', ['grant', email]);
let adminEmail = '';

/** Both themes, as the theme toggle sets them, each checked by axe once its colours have settled. */
async function axeBothThemes(page: Page) {
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), DAISY_THEME[theme]);
    await finiteAnimationsDone(page);
    expect(await axeViolations(page), theme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), DAISY_THEME.light);
}

describe('an admin imports a whole site (docs/decisions/083)', () => {
  it('maps one author to her account and one to a new account; the new author sets her password from the mail and finds her posts on her author page', async () => {
    const archive = await siteGhostArchive(8, [GWEN, HAL], { idPrefix: 'e2e-site-' });
    const file = await writeZip(dirs.make('e2e-site-'), 'our-ghost-site.zip', archive.members);
    const gwenHere = await browsers.open();
    await signUp(gwenHere.context, base, { name: 'Gwen Here', email: GWEN.email });

    const { page, context } = await browsers.open({ viewport: VIEWPORTS.desktop });
    const admin = await signUp(context, base, { name: 'Ada Admin' });
    expect(await grantAdmin(admin.email)).toContain('is now an admin');
    adminEmail = admin.email;
    await page.goto(`${base}/moderation`);
    await page.getByRole('link', { name: 'Import a site' }).click();
    await page.waitForURL(/\/moderation\/import$/);
    await waitForHydration(page);
    await page.getByLabel('Archive').setInputFiles(file);
    await page.getByRole('button', { name: 'Read the archive' }).click();

    await page.getByText('Check whose account each author’s posts go to and how the categories map, then import.').waitFor({ timeout: 60_000 });
    const authors = page.getByTestId('site-author');
    expect(await authors.count()).toBe(2);
    const gwen = authors.filter({ hasText: 'Gwen Ghost (gwen@old.example), 4 posts' });
    const hal = authors.filter({ hasText: 'Hal Harbour (hal@old.example), 4 posts' });
    // Gwen's email has an account here: that is her default. Hal has none: a new account.
    expect(await gwen.getByLabel('Posts go to').inputValue()).toBe('account');
    expect(await gwen.getByLabel('Email of the account').inputValue()).toBe(GWEN.email);
    expect(await hal.getByLabel('Posts go to').inputValue()).toBe('new');
    await screenshot(page, 'site-import-desktop-review');
    await axeBothThemes(page);
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'site-import-phone-review');
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.getByRole('button', { name: 'Import', exact: true }).click();

    await page.getByTestId('import-report').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('import-status').textContent()).toBe('Done.');
    expect(await page.getByTestId('import-report').textContent()).toMatch(/^8 posts imported \(0 were here already, 0 skipped\)/);
    expect(await page.getByTestId('import-authors').locator('li').allTextContents()).toEqual([
      'Gwen Ghost: 4 posts to the account Gwen Here',
      'Hal Harbour: 4 posts to the new account Hal Harbour',
    ]);
    await screenshot(page, 'site-import-desktop-report');
    await axeBothThemes(page);

    // Only the new account's owner is mailed; her link sets a password and she signs in with it.
    const mail = await smtp.waitForMail(HAL.email, 30_000);
    expect(smtp.mails.filter((m) => m.to.includes(GWEN.email))).toEqual([]);
    expect(mail.raw).toContain('Subject: Your posts are on Afterglow: set your password');
    const link = mailText(mail.raw).match(/http:\/\/[\w.]+:\d+\/api\/auth\/reset-password\/[^\s"<>]+/)![0];
    const halBrowser = await browsers.open({ viewport: VIEWPORTS.phone });
    const halPage = halBrowser.page;
    await halPage.goto(link);
    await halPage.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.has('token'));
    await waitForHydration(halPage);
    await halPage.getByLabel(MESSAGES.newPassword).fill('Harbour456');
    await halPage.getByRole('button', { name: MESSAGES.saveNewPassword }).click();
    await halPage.waitForURL(`${base}/login`);
    await halPage.getByTestId('feedback-dialog').getByRole('button', { name: 'OK' }).click();
    await halPage.getByLabel('Email').fill(HAL.email);
    await halPage.getByLabel('Password', { exact: true }).fill('Harbour456');
    await halPage.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    await halPage.waitForURL(`${base}/`);
    await halPage.goto(`${base}/profile`);
    await halPage.getByRole('link', { name: 'My blogs' }).click();
    await halPage.waitForURL(/\/authors\//);
    await waitForHydration(halPage);
    await screenshot(halPage, 'site-import-phone-claimed-author');
    const published = archive.titlesBy[HAL.id]!.filter((title) => archive.publicTitles.includes(title));
    expect(published.length).toBeGreaterThan(0);
    for (const title of published) expect(await halPage.getByText(title, { exact: true }).first().isVisible(), title).toBe(true);
    // None of Gwen's.
    for (const title of archive.titlesBy[GWEN.id]!) expect(await halPage.getByText(title, { exact: true }).count(), title).toBe(0);
    // Three browsers, a scan, a write and a mail on a shared machine: more than the default minute.
  }, 180_000);

  it('works from the command line: authors named by name, the others given new accounts; a writer is refused', async () => {
    const IVO = { id: 'ivo-3', name: 'Ivo Ink', email: 'ivo@old.example' };
    const archive = await siteGhostArchive(4, [GWEN, IVO], { idPrefix: 'cli-site-' });
    const file = await writeZip(dirs.make('cli-site-'), 'cli-site.zip', archive.members);
    const out = await operator('scripts/import.js', [file, '--as', adminEmail, '--whole-site', '--author', `${GWEN.name}=${GWEN.email}`, '--create-accounts']);
    expect(out).toContain('imported from ghost: 4 posts (0 already here, 0 skipped)');
    expect(out).toContain('author Gwen Ghost: 2 posts to the account Gwen Here\n');
    expect(out).toContain('author Ivo Ink: 2 posts to the new account Ivo Ink (mailed a link to set a password)');
    expect(mailText((await smtp.waitForMail(IVO.email, 30_000)).raw)).toContain('with your 2 posts');

    const { context } = await browsers.open();
    const writer = await signUp(context, base, { name: 'Cli Writer' });
    let refused = '';
    try {
      await operator('scripts/import.js', [file, '--as', writer.email, '--whole-site']);
    } catch (error) {
      refused = String((error as { stderr: string }).stderr);
    }
    expect(refused).toContain('import failed: Only admins can do that.');
  });

  it('does not exist for a writer who is not an admin', async () => {
    const { page, context } = await browsers.open();
    await signUp(context, base, { name: 'Wanda Writer' });
    const res = await page.goto(`${base}/moderation/import`);
    expect(res?.status()).toBe(404);
  });
});
