import type { BrowserContext, Page } from 'playwright-core';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { apiSession, type ApiSession } from '../support/auth';
import { axeViolations } from '../support/axe';
import { screenshot, scrollToLive, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { jpegImage } from '../support/images';
import { freePort, type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, startSmtpServer } from '../support/smtp-server';

let smtp: LocalSmtpServer;
let server: RunningServer;
let base: string;
const browsers = useBrowsers({ allowed: /favicon\.ico|status of 404/ });

beforeAll(async () => {
  smtp = await startSmtpServer();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer({ PORT: String(port), PUBLIC_URL: base, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <news@afterglow.test>', MAIL_RATE_PER_MINUTE: '60000' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
});

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function member(name: string): Promise<ApiSession & { email: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${stamp()}@example.com`;
  return { email, ...(await apiSession(base, { email, name })) };
}

async function signInBrowser(context: BrowserContext, session: ApiSession) {
  const [name, value] = session.cookie.split('; ').find((c) => c.includes('session_token'))!.split('=') as [string, string];
  await context.addCookies([{ name, value, url: base }]);
}

/** The mails to an address so far, parsed, once at least `count` came. */
async function mailsTo(email: string, count: number) {
  await expect.poll(() => smtp.mails.filter((m) => m.to.includes(email)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
  return Promise.all(smtp.mails.filter((m) => m.to.includes(email)).map((m) => simpleParser(m.raw)));
}

async function publish(token: string, title: string): Promise<string> {
  const form = new FormData();
  form.set('image', new Blob([new Uint8Array(await jpegImage(800, 500))], { type: 'image/jpeg' }), 'photo.jpg');
  const upload = await fetch(`${base}/api/images`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const photo = ((await upload.json()) as { data: { url: string } }).data.url;
  const res = await fetch(`${base}/api/blogs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title, category: 'Personal', type: 'written content', short_description: 'Lanterns along the water.', long_description: 'An evening on the pier. '.repeat(8), availability: 'Public', photo }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

const like = (token: string, blogId: string) => fetch(`${base}/api/blogs/liked/${blogId}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, origin: base } });

/** The page in both widths and both themes: looked at, and axe finds nothing. */
async function lookAtAllWays(page: Page, url: string, name: string) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(url);
      await waitForHydration(page);
      await screenshot(page, `notifications-${name}-${size}-${scheme}`);
      expect(await axeViolations(page), `${name} ${size} ${scheme}`).toEqual([]);
    }
  }
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('notifications, in a browser, with the real SMTP server', () => {
  it('a reader comments and another replies: each is told in the app and by mail; likes group; the bell counts; mark read', async () => {
    const writer = await member('Wren Writer');
    const jonas = await member('Jonas');
    const blogId = await publish(writer.token, 'Lanterns on the pier');

    // The reader comments from the blog page.
    const reader = await browsers.open({ viewport: VIEWPORTS.phone });
    await signInBrowser(reader.context, jonas);
    await reader.page.goto(`${base}/blogs/${blogId}`);
    await waitForHydration(reader.page);
    await scrollToLive(reader.page, '#comments');
    await reader.page.getByLabel('Comment', { exact: true }).fill('The third lantern is my favourite.');
    await reader.page.getByRole('button', { name: 'Post Comment' }).click();
    await expect.poll(() => reader.page.getByTestId('comments').textContent()).toContain('The third lantern');

    // The writer's mail, at once, with the one-click unsubscribe.
    const [mail] = await mailsTo(writer.email, 1);
    expect(mail!.subject).toBe('Jonas commented on “Lanterns on the pier”');
    // The post's readable address (docs/decisions/092), as the app's own list links it.
    expect(mail!.text).toContain(`${base}/blogs/${blogId}/lanterns-on-the-pier#comment-`);
    expect(mail!.headerLines.find((h) => h.key === 'list-unsubscribe-post')!.line).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(String(mail!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line)).toMatch(/<http:\/\/127\.0\.0\.1:\d+\/mail\/unsubscribe\/[\w.-]+>/);
    expect(smtp.mails.filter((m) => m.to.includes(jonas.email))).toEqual([]);

    // Another reader replies to the comment: its author is told in the app and by mail.
    const commentId = /#comment-([\w-]+)/.exec(mail!.text ?? '')![1]!;
    const ann = await member('Ann Answer');
    const replied = await fetch(`${base}/api/comments/${commentId}/replies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ann.token}`, origin: base },
      body: JSON.stringify({ commentText: 'Mine too, it flickers.' }),
    });
    expect(replied.status, await replied.clone().text()).toBe(200);
    const [replyMail] = await mailsTo(jonas.email, 1);
    expect(replyMail!.subject).toBe('Ann Answer replied to your comment on “Lanterns on the pier”');
    expect(replyMail!.text).toContain(`${base}/blogs/${blogId}/lanterns-on-the-pier#comment-`);
    await expect
      .poll(async () => {
        await reader.page.goto(`${base}/notifications`);
        return reader.page.getByTestId('notification-text').allTextContents();
      }, { timeout: 30_000 })
      .toEqual(['Ann Answer replied to your comment on “Lanterns on the pier”']);
    await screenshot(reader.page, 'notifications-reply-phone-light');

    // Three more readers like the post: one line, "… and 2 others liked".
    for (const name of ['Abe', 'Bo', 'Cy']) expect((await like((await member(name)).token, blogId)).status).toBe(200);

    const desk = await browsers.open({ viewport: VIEWPORTS.desktop });
    await signInBrowser(desk.context, writer);
    const { page } = desk;
    await expect
      .poll(async () => {
        await page.goto(`${base}/`);
        return page.getByTestId('notification-count').textContent().catch(() => null);
      }, { timeout: 30_000 })
      .toBe('2');
    expect(await page.getByTestId('notification-bell').getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await screenshot(page, 'notifications-bell-desktop-light');
    await page.setViewportSize(VIEWPORTS.phone);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await waitForHydration(page);
    await screenshot(page, 'notifications-bell-phone-dark');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.emulateMedia({ colorScheme: 'light' });

    // The page: grouped, newest first, linking to the thing; seen means read.
    await page.getByTestId('notification-bell').click();
    await page.waitForURL(`${base}/notifications`);
    await page.getByTestId('notifications-list').waitFor();
    const texts = await page.getByTestId('notification-text').allTextContents();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^(Abe|Bo|Cy) and 2 others liked “Lanterns on the pier”$/);
    expect(texts[1]).toMatch(/^(Jonas|Ann Answer) and 1 other commented on “Lanterns on the pier”$/);
    expect(await page.locator('[data-testid="notification"][data-read="false"]').count()).toBe(2);
    expect(await page.getByTestId('notification-count').count()).toBe(0);
    await screenshot(page, 'notifications-list-unread-desktop-light');
    await page.goto(`${base}/`);
    expect(await page.getByTestId('notification-count').count()).toBe(0);
    expect(await page.getByTestId('notification-bell').getAttribute('aria-label')).toBe('Notifications');
    await lookAtAllWays(page, `${base}/notifications`, 'list');

    // A new like reopens its line; Mark all read clears the bell.
    await like((await member('Dee')).token, blogId);
    const unread = async () => ((await (await fetch(`${base}/api/notifications/unread-count`, { headers: { authorization: `Bearer ${writer.token}` } })).json()) as { unread: number }).unread;
    await expect.poll(unread, { timeout: 60_000 }).toBe(1);
    await expect
      .poll(async () => {
        await page.goto(`${base}/allblogs`);
        return page.getByTestId('notification-count').textContent().catch(() => null);
      }, { timeout: 30_000 })
      .toBe('1');
    const list = await fetch(`${base}/api/notifications`, { headers: { authorization: `Bearer ${writer.token}` } });
    expect(((await list.json()) as { text: string; read: boolean }[])[0]).toMatchObject({ read: false, text: expect.stringMatching(/^Dee and 3 others liked/) });
    await page.goto(`${base}/notifications`);
    await waitForHydration(page);
    await page.getByTestId('mark-all-read').click();
    await expect.poll(() => page.getByText(MESSAGES.allMarkedRead).count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="notification"][data-read="false"]').count()).toBe(0);
    const count = await fetch(`${base}/api/notifications/unread-count`, { headers: { authorization: `Bearer ${writer.token}` } });
    expect(await count.json()).toEqual({ unread: 0 });

    // Opening the mail's link goes to the comment.
    await page.goto(/http:\S+#comment-\S+/.exec(mail!.text ?? '')![0]);
    expect(await page.getByTestId('comments').textContent()).toContain('The third lantern');
  });

  it('a new member sees the empty state; mail choices per kind on the preferences page', async () => {
    const fresh = await member('Nell New');
    const { page, context } = await browsers.open({ viewport: VIEWPORTS.phone });
    await signInBrowser(context, fresh);
    await page.goto(`${base}/notifications`);
    await waitForHydration(page);
    expect(await page.getByTestId('notifications-empty').textContent()).toContain(MESSAGES.notificationsEmpty);
    await lookAtAllWays(page, `${base}/notifications`, 'empty');

    await page.goto(`${base}/mail/preferences`);
    await waitForHydration(page);
    const form = page.getByTestId('notification-mail-form');
    await form.getByRole('group', { name: 'Comments on my blogs' }).getByLabel('No mail').check();
    await form.getByRole('group', { name: 'New followers' }).getByLabel('At once').check();
    await page.getByTestId('notification-mail-save').click();
    await expect.poll(() => page.getByText(MESSAGES.preferencesSaved).count()).toBeGreaterThan(0);
    await page.reload();
    expect(await form.getByRole('group', { name: 'Comments on my blogs' }).getByLabel('No mail').isChecked()).toBe(true);
    expect(await form.getByRole('group', { name: 'New followers' }).getByLabel('At once').isChecked()).toBe(true);
    await lookAtAllWays(page, `${base}/mail/preferences`, 'preferences');
  });
});
