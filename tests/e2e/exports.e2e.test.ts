import { readFile } from 'node:fs/promises';
import { simpleParser } from 'mailparser';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { signUp } from '../support/auth';
import { jpegImage } from '../support/images';
import { axeViolations } from '../support/axe';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { freePort, type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, startSmtpServer } from '../support/smtp-server';
import { readZip, splitFrontMatter } from '../support/zip';

let smtp: LocalSmtpServer;
let server: RunningServer;
/** PUBLIC_URL, so the mailed link opens in the browser. */
let base: string;
const browsers: Browser[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), PUBLIC_URL: base, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <exports@afterglow.test>' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});
afterEach(async () => {
  const errors = browsers.flatMap((b) => b.errors);
  await Promise.all(browsers.splice(0).map((b) => b.close()));
  expect(errors).toEqual([]);
});

const open = async (colorScheme: 'light' | 'dark' = 'light') => {
  const browser = await openBrowser({ colorScheme });
  browsers.push(browser);
  return browser;
};

async function lookAt(page: Page, name: string) {
  for (const [width, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await screenshot(page, `${name}-${width}`);
  }
  expect(await axeViolations(page)).toEqual([]);
}

// The form's schema trims a body, so what is stored (and exported) ends without a newline.
const BODY = '# Before I go\n\nEvery word of this stays as it was: *emphasis*, `code`, مرحبا, 🌅.\n\n- one\n- two';

describe('exporting everything, in a browser against a real SMTP server', () => {
  it('a writer asks on her account page, the link comes by mail, and the zip holds her post byte for byte; nobody else can use the link', async () => {
    const writer = await open();
    const me = await signUp(writer.context, base, { name: 'Export Writer' });
    const uploaded = await writer.context.request.post(`${base}/api/images`, { headers: { origin: base }, multipart: { image: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(800, 500) } } });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const photo = ((await uploaded.json()) as { data: { url: string } }).data.url;
    const made = await writer.context.request.post(`${base}/api/blogs`, {
      headers: { origin: base },
      data: { title: 'Before I go', category: 'Personal', type: 'Mini blog', short_description: 'A last note.', long_description: BODY, availability: 'Public', photo },
    });
    expect(made.status(), await made.text()).toBe(201);
    const { insertedId } = (await made.json()) as { insertedId: string };

    const { page } = writer;
    await page.goto(`${base}/account`);
    await waitForHydration(page);
    const card = page.getByTestId('export-everything');
    await card.getByRole('button', { name: MESSAGES.exportButton }).click();
    await card.getByTestId('export-started').waitFor();
    expect(await card.getByTestId('export-started').innerText()).toBe(MESSAGES.exportStarted);

    // The mail arrives with the link.
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes(me.email)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const mail = await simpleParser(smtp.mails.find((m) => m.to.includes(me.email))!.raw);
    expect(mail.subject).toBe('Your Afterglow export is ready');
    const link = /http:\/\/\S+\/exports\/\S+/.exec(mail.text ?? '')![0];
    expect(link.startsWith(`${base}/exports/`)).toBe(true);

    // The account page lists it with the same link.
    await page.goto(`${base}/account`);
    await waitForHydration(page);
    const download = page.getByTestId('export-download');
    await download.waitFor();
    expect(new URL(link).pathname).toBe(await download.getAttribute('href'));
    await lookAt(page, 'exports-account-light');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/^afterglow-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = await readZip(await readFile((await file.path())!));
    const post = splitFrontMatter(files.get(`posts/${insertedId}.md`)!.toString('utf8'));
    expect(post.body).toBe(BODY);
    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({ email: me.email, name: 'Export Writer' });
    const cover = splitFrontMatter(files.get(`posts/${insertedId}.md`)!.toString('utf8')).front.match(/^photo: (images\/[0-9a-f]{64}\.webp)$/m)![1]!;
    const served = Buffer.from(await (await fetch(`${base}${photo}`)).arrayBuffer());
    expect(files.get(cover)!.equals(served)).toBe(true);

    // Someone else, signed in, gets a 404; signed out, the link asks to sign in first.
    const other = await open();
    await signUp(other.context, base, { name: 'Not Her' });
    const foreign = await other.context.request.get(link, { maxRedirects: 0 });
    expect(foreign.status()).toBe(404);
    expect(await foreign.text()).toBe(MESSAGES.exportNotFound);
    const anonymous = await fetch(link, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=%2Fexports%2F/);
  });

  it('shows the export card in the dark theme too', async () => {
    const browser = await open('dark');
    await signUp(browser.context, base, { name: 'Dark Writer' });
    await browser.page.goto(`${base}/account`);
    await waitForHydration(browser.page);
    await browser.page.getByTestId('export-everything').waitFor();
    await lookAt(browser.page, 'exports-account-dark');
  });
});
