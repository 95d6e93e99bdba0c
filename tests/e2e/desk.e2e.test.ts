import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import { createScratchDatabase, type ScratchDatabase } from '#test/databases';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { fillBlogForm, seedBlog, uploadPhoto } from '../support/blogs';
import { type Browser, screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { jpegImage } from '../support/images';
import { freePort, type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, mailText, startSmtpServer } from '../support/smtp-server';

/**
 * The writer's desk (docs/decisions/070) against the built server: a draft kept on the server
 * opens in another browser profile with its picture; a scheduled post survives a restart, is
 * published by the job runner on time and mailed once; a post's history restores a version.
 */
let smtp: LocalSmtpServer;
let scratch: ScratchDatabase;
let handle: DatabaseHandle;
let server: RunningServer;
let url: string;
let env: Record<string, string>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  scratch = await createScratchDatabase('sqlite');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  env = { ...scratch.env, PORT: String(port), PUBLIC_URL: url, SMTP_URL: smtp.url, MAIL_FROM: 'Afterglow <news@afterglow.test>', MAIL_RATE_PER_MINUTE: '600000', MAIL_RETRY_SECONDS: '1', MAIL_CLAIM_SECONDS: '3' };
  server = await startServer(env);
  handle = createDatabase({ databaseUrl: scratch.env.DATABASE_URL, sqlitePath: `${scratch.dataDir}/afterglow.db` });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await handle?.close();
  await smtp?.stop();
  await scratch?.drop();
});

const browsers = useBrowsers();

async function signIn(browser: Browser, user: { email: string; password: string }) {
  const res = await browser.context.request.post(`${url}/api/auth/sign-in/email`, { data: user, headers: { origin: url } });
  expect(res.ok()).toBe(true);
}

describe("the writer's desk", () => {
  it('keeps a post written without saving, with its picture, for another browser profile', async () => {
    const first = await browsers.open();
    const user = await signUp(first.context, url);
    await first.page.goto(`${url}/addBlog`);
    await waitForHydration(first.page);
    await first.page.getByLabel('Title').fill('Low tide at the pier');
    await first.page.getByLabel('Image').setInputFiles({ name: 'pier.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(900, 600) });
    await first.page.getByLabel('Long description').fill('The water went out past the last post.');
    // Autosave: a few seconds later the draft is on the server, and the page says so.
    const status = first.page.getByTestId('save-status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('saved');
    expect(await status.textContent()).toContain('Saved');
    // More text, and the tab closes at once: what was not saved yet goes out as the page goes.
    await first.page.getByLabel('Long description').fill('The water went out past the last post. Then the birds came.');
    first.page.on('dialog', (d) => void d.accept());
    await first.page.close({ runBeforeUnload: true });
    // The browser itself goes on (only the tab closed): the request sent as the page went arrives.
    const body = () => handle.db.selectFrom('blog_drafts').select('long_description').executeTakeFirst().then((d) => d?.long_description);
    await expect.poll(body, { timeout: 20_000 }).toBe('The water went out past the last post. Then the birds came.');
    await first.close();

    // Another browser profile, the same writer: the draft is there, with its picture.
    const second = await browsers.open();
    await signIn(second, user);
    await second.page.goto(`${url}/addBlog`);
    await waitForHydration(second.page);
    await second.page.getByTestId('draft-restored').waitFor();
    expect(await second.page.getByLabel('Title').inputValue()).toBe('Low tide at the pier');
    expect(await second.page.getByLabel('Long description').inputValue()).toBe('The water went out past the last post. Then the birds came.');
    const photo = second.page.getByTestId('draft-photo');
    await photo.waitFor();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(second.page, 'desk-draft-other-profile');

    // The draft is on the profile, and nowhere public.
    const drafts = await handle.db.selectFrom('blog_drafts').select(['id', 'photo']).execute();
    expect(drafts).toHaveLength(1);
    expect((await fetch(`${url}/api/blogs?limit=100`).then((r) => r.json())) as unknown[]).toEqual([]);
    await second.page.goto(`${url}/profile`);
    await second.page.getByTestId('draft-item').filter({ hasText: 'Low tide at the pier' }).waitFor();

    // Published from here: the spec's form, the cover kept with the draft, and the draft is gone.
    await second.page.getByRole('link', { name: 'Low tide at the pier' }).click();
    await second.page.waitForURL(/\/addBlog\?draft=/);
    await waitForHydration(second.page);
    await second.page.getByLabel('Category').selectOption('Travelling & Photography');
    await second.page.getByLabel('Type').selectOption('Photo');
    await second.page.getByLabel('Short description').fill('Out past the last post.');
    await second.page.getByLabel('Availability').selectOption('Public');
    await second.page.getByRole('button', { name: 'Add Blog' }).click();
    await second.page.getByText('Your Blog added successfully!').waitFor();
    await second.page.waitForURL(`${url}/allblogs`);
    const blog = await handle.db.selectFrom('blogs').select(['id', 'photo']).where('title', '=', 'Low tide at the pier').executeTakeFirstOrThrow();
    expect(blog.photo).toBe(drafts[0]!.photo);
    expect(await handle.db.selectFrom('blog_drafts').select('id').execute()).toEqual([]);
  }, 180_000);

  it('publishes a scheduled post on time after a restart, and mails it once', async () => {
    const subscriber = `reader-${Date.now()}@afterglow.test`;
    const now = new Date().toISOString();
    await handle.db.insertInto('subscribers').values({ id: `sub-${Date.now()}`, email: subscriber, created_at: now, confirmed_at: now }).execute();

    const browser = await browsers.open();
    await signUp(browser.context, url);
    const { page } = browser;
    await page.goto(`${url}/addBlog?new`);
    await waitForHydration(page);
    await fillBlogForm(page, 'Tomorrow morning, early');
    await page.getByLabel('Image').setInputFiles({ name: 'dawn.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(800, 500) });
    await page.getByLabel('At a time').check();
    // About two minutes ahead, in the writer's own clock (the field takes whole minutes).
    const at = new Date(Math.ceil((Date.now() + 90_000) / 60_000) * 60_000);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel('Date and time (your time zone)').fill(local);
    await screenshot(page, 'desk-schedule');
    await page.getByRole('button', { name: 'Add Blog' }).click();
    await page.waitForURL(`${url}/profile#drafts`);
    await page.getByTestId('draft-scheduled').waitFor();
    await page.getByText('Your post is scheduled').waitFor();
    await browser.close();
    const draft = await handle.db.selectFrom('blog_drafts').select(['id', 'publish_at']).where('title', '=', 'Tomorrow morning, early').executeTakeFirstOrThrow();
    expect(new Date(draft.publish_at!).getTime()).toBe(at.getTime());
    expect((await fetch(`${url}/api/blogs/${draft.id}`)).status).toBe(404);

    // The server restarts before the time comes: the job is in the database, not in memory.
    await server.stop();
    server = await startServer(env);
    expect(Date.now()).toBeLessThan(at.getTime());
    expect((await fetch(`${url}/api/blogs/${draft.id}`)).status).toBe(404);

    // On time: within a few seconds of it (the runner looks every second), never before.
    for (const deadline = at.getTime() + 30_000; (await fetch(`${url}/api/blogs/${draft.id}`)).status !== 200; ) {
      if (Date.now() > deadline) throw new Error('the scheduled post was not published');
      await new Promise((r) => setTimeout(r, 250));
    }
    const published = Date.now();
    expect(published).toBeGreaterThanOrEqual(at.getTime());
    expect(published - at.getTime()).toBeLessThan(10_000);
    const post = await handle.db.selectFrom('blogs').select(['created_at']).where('id', '=', draft.id).executeTakeFirstOrThrow();
    expect(new Date(post.created_at).getTime()).toBeGreaterThanOrEqual(at.getTime());

    // Mailed to the newsletter once.
    await smtp.waitForMail(subscriber, 60_000);
    await new Promise((r) => setTimeout(r, 5_000));
    const mails = smtp.mails.filter((m) => m.to.includes(subscriber) && mailText(m.raw).includes('Tomorrow morning, early'));
    expect(mails).toHaveLength(1);
    expect(await handle.db.selectFrom('blog_drafts').select('id').where('id', '=', draft.id).execute()).toEqual([]);
  }, 300_000);

  it('keeps every save of a published post, compares two and restores the first', async () => {
    const browser = await browsers.open();
    const { page, context } = browser;
    await signUp(context, url);
    const photo = await uploadPhoto(context, url);
    const id = await seedBlog(context, url, { title: 'The first version', long_description: 'The harbour was quiet.', photo });
    for (const [title, body] of [['The second version', 'The harbour was busy.'], ['The third version', 'The harbour was loud.']] as const) {
      await page.goto(`${url}/updateBlog/${id}`);
      await waitForHydration(page);
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Long description').fill(body);
      await page.getByRole('button', { name: 'Update Blog' }).click();
      await page.getByText('Your blog has been updated').waitFor();
      await page.waitForURL(`${url}/allblogs`);
    }
    await page.goto(`${url}/updateBlog/${id}`);
    await page.getByRole('link', { name: 'History of this post' }).click();
    await page.waitForURL(`${url}/blogs/${id}/history`);
    await waitForHydration(page);
    const rows = page.getByTestId('revision');
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(2).textContent()).toContain('The first version');

    // Compare the first with the current one: the words that changed, marked.
    await rows.nth(2).getByRole('radio', { name: /Compare from/ }).check();
    await rows.nth(0).getByRole('radio', { name: /Compare to/ }).check();
    await page.getByRole('button', { name: 'Compare' }).click();
    const body = page.getByTestId('diff-long_description');
    await body.waitFor();
    expect(await body.locator('del').allTextContents()).toEqual(['quiet']);
    expect(await body.locator('ins').allTextContents()).toEqual(['loud']);
    await screenshot(page, 'desk-history-compare');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByTestId('revision').nth(2).getByRole('button', { name: 'Restore' }).click();
    // The post, at the address its restored title gives it.
    await page.waitForURL(`${url}/blogs/${id}/the-first-version`);
    await page.getByRole('heading', { level: 1, name: 'The first version' }).waitFor();
    const shown = (await fetch(`${url}/api/blogs/${id}`).then((r) => r.json())) as { title: string; long_description: string };
    expect(shown).toMatchObject({ title: 'The first version', long_description: 'The harbour was quiet.' });
  }, 180_000);

  for (const [name, viewport, colorScheme] of [
    ['desktop-light', VIEWPORTS.desktop, 'light'],
    ['desktop-dark', VIEWPORTS.desktop, 'dark'],
    ['phone-light', VIEWPORTS.phone, 'light'],
    ['phone-dark', VIEWPORTS.phone, 'dark'],
  ] as const) {
    it(`shows the canvas on ${name}, the preview in the reading column, without axe violations`, async () => {
      const { page, context } = await browsers.open({ viewport, colorScheme });
      await signUp(context, url);
      await page.goto(`${url}/addBlog?new`);
      await waitForHydration(page);
      await page.getByLabel('Title').fill('Salt on the window');
      await page.getByLabel('Long description').fill('## Morning\n\nThe sea had left **salt** on every window of the house.\n\n> Quiet, then gulls.');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      // On a phone the other fields fold away under the canvas; on a desktop they stand beside it.
      expect(await page.getByTestId('post-settings').evaluate((el) => (el as HTMLDetailsElement).open)).toBe(viewport.width >= 1024);
      await screenshot(page, `desk-canvas-${name}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('tab', { name: 'Preview' }).click();
      await page.getByTestId('preview-title').waitFor();
      await screenshot(page, `desk-preview-${name}`);
    }, 120_000);
  }
});
