import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowsers } from '../support/browser';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { signUp } from '../support/auth';
import { type Browser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { freePort, type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, mailText, startSmtpServer } from '../support/smtp-server';

let smtp: LocalSmtpServer;
let server: RunningServer;
let browser: Browser | undefined;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // As an operator runs it: mailed links start with PUBLIC_URL (docs/decisions/021).
  const port = await freePort();
  server = await startServer({ PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <no-reply@afterglow.test>' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});
const browsers = useBrowsers({ allowed: /status of 400/ });

const dialog = (page: Page) => page.getByTestId('feedback-dialog');

async function askForReset(page: Page, email: string, base = server.url) {
  await page.goto(`${base}/login`);
  await waitForHydration(page);
  await page.getByRole('link', { name: MESSAGES.forgotPassword }).click();
  await page.waitForURL(`${base}/forgot-password`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: MESSAGES.sendResetLink }).click();
  await expect.poll(() => page.getByTestId('reset-sent').textContent()).toContain(MESSAGES.resetLinkSentText);
}

const resetLink = (raw: string) => mailText(raw).match(/http:\/\/[\w.]+:\d+\/api\/auth\/reset-password\/[^\s"<>]+/)![0];

describe('forgot password, against a real SMTP server', () => {
  it('mails a single-use link that sets a new password and ends every other session', async () => {
    browser = await browsers.open({ viewport: VIEWPORTS.phone });
    const { page, context } = browser;
    const user = await signUp(context, server.url, { name: 'Rita Reset' });
    const oldSession = (await context.cookies()).find((c) => c.name.endsWith('session_token'))!;
    await context.clearCookies();

    await askForReset(page, user.email);
    await screenshot(page, 'accounts-forgot-password-phone-light');
    const mail = await smtp.waitForMail(user.email);
    expect(mail.raw).toContain('Subject: Reset your Afterglow password');
    expect(mail.raw).toContain('From: Afterglow <no-reply@afterglow.test>');
    const link = resetLink(mail.raw);

    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/reset-password' && url.searchParams.has('token'));
    await waitForHydration(page);
    await page.getByLabel(MESSAGES.newPassword).fill('weakpass');
    await page.getByRole('button', { name: MESSAGES.saveNewPassword }).click();
    await expect.poll(() => page.getByTestId('password-error').textContent()).toBe(MESSAGES.passwordHint);
    await page.getByLabel(MESSAGES.newPassword).fill('Evening456');
    await page.getByRole('button', { name: MESSAGES.saveNewPassword }).click();
    await page.waitForURL(`${server.url}/login`);
    await expect.poll(() => dialog(page).getByRole('heading').textContent()).toBe(MESSAGES.passwordResetTitle);
    await dialog(page).getByRole('button', { name: 'OK' }).click();

    const replay = await fetch(`${server.url}/api/update/${user.email}`, { headers: { cookie: `${oldSession.name}=${oldSession.value}` } });
    expect(replay.status).toBe(401);

    // Used once, the link is spent.
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === '/reset-password');
    expect(await page.getByTestId('form-error').textContent()).toBe(MESSAGES.resetLinkInvalid);

    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('Evening456');
    await page.getByRole('button', { name: MESSAGES.logInButton, exact: true }).click();
    await page.waitForURL(`${server.url}/`);
  });

  it('answers the same for an email without an account, and sends nothing', async () => {
    browser = await browsers.open({ colorScheme: 'dark' });
    const { page } = browser;
    const before = smtp.mails.length;
    await askForReset(page, `nobody-${Date.now()}@example.com`);
    await screenshot(page, 'accounts-forgot-password-desktop-dark');
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.length).toBe(before);
  });
});

describe('forms are rate-limited per client address, like the API', () => {
  let limited: RunningServer;
  beforeAll(async () => {
    limited = await startServer({ RATE_LIMITS: 'on' });
  });
  afterAll(async () => limited?.stop());

  const post = (path: string, form: Record<string, string>) =>
    fetch(`${limited.url}${path}`, {
      method: 'POST',
      headers: { origin: limited.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });

  it('allows the documented sign-in attempts per hour, shared between the form and the API', async () => {
    const { limit, windowMs } = RATE_LIMITS.signIn;
    const form = { email: 'target@example.com', password: 'Guess1234' };
    const viaForm = Math.ceil(limit / 2);
    for (let i = 0; i < viaForm; i++) expect((await post('/login', form)).status).toBe(401);
    for (let i = viaForm; i < limit; i++) {
      const res = await fetch(`${limited.url}/api/auth/sign-in/email`, { method: 'POST', headers: { origin: limited.url, 'content-type': 'application/json' }, body: JSON.stringify(form) });
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(limit - i - 1));
    }
    const page = await post('/login', form);
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(MESSAGES.tooManyRequests.replace("'", '&#x27;').slice(0, 20));
    const api = await fetch(`${limited.url}/api/auth/sign-in/email`, { method: 'POST', headers: { origin: limited.url, 'content-type': 'application/json' }, body: JSON.stringify(form) });
    expect(api.status).toBe(429);
    expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(windowMs / 1000 - 100);
  });

  it('allows 5 reset mails per hour', async () => {
    for (let i = 0; i < 5; i++) expect((await post('/forgot-password', { email: `r${i}@example.com` })).status).toBe(200);
    expect((await post('/forgot-password', { email: 'r6@example.com' })).status).toBe(429);
  });

  it('allows 5 sign-ups per hour', async () => {
    const body = (i: number) => {
      const form = new FormData();
      form.set('email', `limit${i}-${Date.now()}@example.com`);
      form.set('name', 'Limit');
      form.set('password', 'Sunset123');
      form.set('terms', 'on');
      return form;
    };
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${limited.url}/register`, { method: 'POST', headers: { origin: limited.url }, body: body(i), redirect: 'manual' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
  });
});

describe('forgot password without SMTP_URL', () => {
  let local: RunningServer;
  beforeAll(async () => {
    local = await startServer({ LOG_LEVEL: 'info' });
  });
  afterAll(async () => local?.stop());

  it('writes the mail to DATA_DIR/outbox as .eml, logs one line, and the link works', async () => {
    browser = await browsers.open();
    const { page, context } = browser;
    const user = await signUp(context, local.url, { name: 'Otto Outbox' });
    await context.clearCookies();
    await askForReset(page, user.email, local.url);
    const outbox = path.join(local.dataDir, 'outbox');
    const files = () => { try { return readdirSync(outbox).filter((f) => f.endsWith('.eml')); } catch { return []; } };
    await expect.poll(files).toHaveLength(1);
    const raw = readFileSync(path.join(outbox, files()[0]!), 'utf8');
    expect(raw).toContain(`To: ${user.email}`);
    await expect.poll(() => local.output().split('\n').filter((l) => l.includes('mail written to the outbox')).length).toBe(1);
    expect(local.output()).not.toMatch(/reset-password\/[A-Za-z0-9]/);

    // PUBLIC_URL unset: the link names this machine, never the host the request came to.
    const link = resetLink(raw);
    const home = `http://localhost:${local.port}`;
    expect(link.startsWith(`${home}/`)).toBe(true);
    await page.goto(link);
    await waitForHydration(page);
    await page.getByLabel(MESSAGES.newPassword).fill('Morning789');
    await page.getByRole('button', { name: MESSAGES.saveNewPassword }).click();
    await page.waitForURL(`${home}/login`);
    await expect.poll(() => dialog(page).textContent()).toContain(MESSAGES.passwordResetText);
  });
});
