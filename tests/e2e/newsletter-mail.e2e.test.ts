import type { Page } from 'playwright-core';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { jpegImage } from '../support/images';
import { apiSession } from '../support/auth';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from '../support/browser';
import { expectDialog } from '../support/dialogs';
import { freePort, type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, startSmtpServer } from '../support/smtp-server';

let smtp: LocalSmtpServer;
let server: RunningServer;
let browser: Browser | undefined;
/** The site's address: PUBLIC_URL, so mailed links open in the browser (startServer's own url names its default port). */
let base: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Afterglow <news@afterglow.test>',
    MAIL_RATE_PER_MINUTE: '60000',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});
afterEach(async () => {
  // Headless Chromium probes /favicon.ico on a page opened straight from a typed link (the
  // site declares /favicon.svg); that probe's 404 is not the page's.
  const errors = (browser?.errors ?? []).filter((e) => !e.includes('status of 404'));
  const probes = (browser?.errors ?? []).length - errors.length;
  await browser?.close();
  browser = undefined;
  expect(errors).toEqual([]);
  expect(probes).toBeLessThanOrEqual(1);
});

/** Waits for the `nth` mail to an address (1-based) and parses it. */
async function nthMail(to: string, nth: number) {
  await expect.poll(() => smtp.mails.filter((m) => m.to.includes(to)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(nth);
  return simpleParser(smtp.mails.filter((m) => m.to.includes(to))[nth - 1]!.raw);
}

const photos = new Map<string, string>();

/** A real uploaded photo per writer, so the mail's and the page's pictures load. */
async function photoOf(token: string): Promise<string> {
  if (!photos.has(token)) {
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(await jpegImage(1000, 625))], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${base}/api/images`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(res.ok).toBe(true);
    photos.set(token, ((await res.json()) as { data: { url: string } }).data.url);
  }
  return photos.get(token)!;
}

/** The page at `url` in both sizes and both themes, for looking at: a screen is checked by eye, not only by tests. */
async function screenshotAllWays(page: Page, url: string, name: string) {
  for (const [size, viewport] of [['desktop', { width: 1366, height: 900 }], ['phone', VIEWPORTS.phone]] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(url);
      await waitForHydration(page);
      await screenshot(page, `mail-${name}-${size}-${scheme}`);
    }
  }
  await page.setViewportSize(VIEWPORTS.phone);
  await page.emulateMedia({ colorScheme: 'light' });
}

async function publish(token: string, title: string) {
  const photo = await photoOf(token);
  const res = await fetch(`${base}/api/blogs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      title,
      category: 'Personal',
      type: 'written content',
      short_description: 'The sky went orange, then pink, then a deep violet.',
      long_description: 'A whole evening on the pier. '.repeat(8),
      availability: 'Public',
      photo,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

describe('newsletter mail, in a browser against a real SMTP server', () => {
  it('subscribe → confirm → receive the next post → unsubscribe in one click', async () => {
    const writer = await apiSession(base, { email: `writer.${Date.now()}@example.com`, name: 'Nora Nightfall' });
    browser = await openBrowser({ viewport: VIEWPORTS.phone });
    const { page } = browser;
    const email = `reader.${Date.now()}@example.com`;

    await page.goto(`${base}/newsletter`);
    await waitForHydration(page);
    await page.getByTestId('newsletter').getByLabel('Email').fill(email);
    await page.getByTestId('newsletter').getByRole('button', { name: MESSAGES.subscribe }).click();
    await expectDialog(page, MESSAGES.subscribedTitle, MESSAGES.subscribeSuccessMessage);

    // Nothing but the confirmation until the address is confirmed.
    const confirmation = await nthMail(email, 1);
    expect(confirmation.subject).toBe('Confirm your subscription to Afterglow');
    await publish(writer.token, 'Sent before confirming');
    const confirmLink = /http:\/\/127\.0\.0\.1:\d+\/mail\/confirm\/\S+/.exec(confirmation.text ?? '')![0];
    await page.goto(confirmLink);
    expect(await page.getByTestId('subscription-confirmed').textContent()).toContain(email);
    await screenshotAllWays(page, confirmLink, 'confirmed');

    const blogId = await publish(writer.token, 'Lanterns on the pier');
    const post = await nthMail(email, 2);
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(2);
    expect(post.subject).toBe('Lanterns on the pier');
    expect(post.text).toContain(`/blogs/${blogId}`);
    expect(post.html).toContain('The sky went orange');
    const unsubscribeHeader = post.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
    const unsubscribeUrl = /<(http[^>]+)>/.exec(unsubscribeHeader)![1]!;

    // The mail as a reader sees it.
    await page.setContent(post.html as string);
    await screenshot(page, 'mail-post-html-phone');

    // The footer link opens the confirmation page; its button POSTs.
    const footerLink = /Unsubscribe: (\S+)/.exec(post.text ?? '')![1]!;
    expect(footerLink).toBe(unsubscribeUrl);
    await screenshotAllWays(page, footerLink, 'unsubscribe');
    const manage = /Manage preferences: (\S+)/.exec(post.text ?? '')![1]!;
    await screenshotAllWays(page, manage, 'preferences-by-link');
    expect(await page.getByText(email).count()).toBe(1);
    await page.goto(footerLink);
    await waitForHydration(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(MESSAGES.unsubscribeTitle);
    await page.getByTestId('unsubscribe-button').click();
    expect(await page.getByTestId('unsubscribed').textContent()).toContain(email);
    await screenshot(page, 'mail-unsubscribed-phone-light');

    await publish(writer.token, 'After unsubscribing');
    const again = await fetch(`${base}/api/subscribers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    expect(again.status).toBe(201);
    expect(smtp.mails.filter((m) => m.to.includes(email) && m.raw.includes('After unsubscribing'))).toEqual([]);
  });

  it('follow a writer from the blog page, see them under Following, unfollow', async () => {
    const writer = await apiSession(base, { email: `writer2.${Date.now()}@example.com`, name: 'Sol Vesper' });
    const blogId = await publish(writer.token, 'Follow me into the dusk');
    browser = await openBrowser();
    const { page, context } = browser;
    const readerEmail = `follower.${Date.now()}@example.com`;
    const reader = await apiSession(base, { email: readerEmail, name: 'Fern Follower' });
    const [name, value] = reader.cookie.split('; ').find((c) => c.includes('session_token'))!.split('=') as [string, string];
    await context.addCookies([{ name, value, url: base }]);

    await page.goto(`${base}/blogs/${blogId}`);
    await waitForHydration(page);
    // The byline's button (the end of the post offers a second one until the reader follows).
    await page.getByTestId('follow-button').first().click();
    // The end of the post keeps its server copy until the reader scrolls near it (docs/decisions/077).
    await expect.poll(() => page.getByTestId('follow-button').first().textContent()).toBe(MESSAGES.unfollow);
    await screenshot(page, 'mail-follow-button-desktop-light');

    await page.goto(`${base}/following`);
    expect(await page.getByTestId('following-list').textContent()).toContain('Sol Vesper');
    const second = await publish(writer.token, 'A second dusk');
    const mail = await nthMail(readerEmail, 1);
    expect(mail.subject).toBe('New from Sol Vesper: A second dusk');
    expect(mail.text).toContain(`/blogs/${second}`);

    await screenshotAllWays(page, `${base}/mail/preferences`, 'preferences');
    await screenshotAllWays(page, `${base}/following`, 'following');
    await waitForHydration(page);
    await page.getByRole('button', { name: `${MESSAGES.unfollow} Sol Vesper` }).click();
    await expect.poll(() => page.getByTestId('following-list').textContent()).not.toContain('Sol Vesper');
  });
});
