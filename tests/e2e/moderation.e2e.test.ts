import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from './helpers/auth';
import { axeViolations } from './helpers/axe';
import { seedBlog, uploadPhoto } from './helpers/blogs';
import { type Browser, openBrowser, screenshot, VIEWPORTS, waitForHydration } from './helpers/browser';
import { type RunningServer, startServer } from './helpers/server';

let server: RunningServer;
const browsers: Browser[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());
afterEach(async () => {
  const errors = browsers.flatMap((b) => b.errors).filter((e) => !e.includes('the server responded with a status of 404 '));
  await Promise.all(browsers.splice(0).map((b) => b.close()));
  expect(errors).toEqual([]);
});

async function open(options: Parameters<typeof openBrowser>[0] = {}) {
  const browser = await openBrowser(options);
  browsers.push(browser);
  return browser;
}

/** The operator's command line, against the running server's own data directory. */
function grantAdmin(email: string) {
  return execFileSync(process.execPath, ['scripts/admin.js', 'grant', email], { env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
}

async function commentsSeenAnonymously(blogId: string): Promise<string[]> {
  const blog = (await (await fetch(`${server.url}/api/blogs/${blogId}`)).json()) as { comments: { commentText: string }[] };
  return blog.comments.map((c) => c.commentText);
}

describe('moderation', () => {
  it('a reader reports a comment, a moderator hides it, only its author sees why, a restore brings it back', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Wren Writer' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Harbour at dusk', photo: await uploadPhoto(writer.context, server.url) });

    const commenter = await open();
    await signUp(commenter.context, server.url, { name: 'Cass Commenter' });
    const posted = await commenter.context.request.patch(`${server.url}/api/blogs/${blogId}`, { headers: { origin: server.url }, data: { commentText: 'Cheap pills at spam.example' } });
    expect(posted.status()).toBe(200);

    const moderator = await open();
    const mod = await signUp(moderator.context, server.url, { name: 'Mona Moderator' });
    expect(grantAdmin(mod.email)).toContain('is now an admin');

    // The reader reports the comment from the blog page.
    const reader = await open();
    await signUp(reader.context, server.url, { name: 'Rhea Reader' });
    await reader.page.goto(`${server.url}/blogs/${blogId}`);
    await waitForHydration(reader.page);
    const report = reader.page.getByTestId('report-comment');
    await report.locator('summary').click();
    await report.getByLabel('Reason').selectOption('Spam');
    await report.getByLabel(/Anything else/).fill('Pill links');
    await screenshot(reader.page, 'moderation-report-dialog-desktop-light');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(() => reader.page.getByText('Thank you. A moderator will look at it.').count()).toBeGreaterThan(0);

    // It is in the queue, with what was reported.
    await moderator.page.goto(`${server.url}/moderation`);
    await waitForHydration(moderator.page);
    const item = moderator.page.getByTestId('queue-item').filter({ hasText: 'Cheap pills at spam.example' });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('Pill links');
    expect(await axeViolations(moderator.page)).toEqual([]);
    await screenshot(moderator.page, 'moderation-queue-desktop-light');
    await item.getByLabel(/Reason/).fill('Spam links');
    await item.getByRole('button', { name: 'Hide' }).click();
    await expect.poll(() => moderator.page.getByTestId('queue-item').count()).toBe(0);

    // Gone for everyone but its author, who sees the reason.
    expect(await commentsSeenAnonymously(blogId)).toEqual([]);
    await reader.page.goto(`${server.url}/blogs/${blogId}`);
    expect(await reader.page.getByText('Cheap pills at spam.example').count()).toBe(0);
    await commenter.page.goto(`${server.url}/blogs/${blogId}`);
    const notice = commenter.page.getByTestId('removed-notice');
    expect(await notice.textContent()).toContain('Removed by a moderator');
    expect(await notice.textContent()).toContain('Reason: Spam links');

    // A restore brings it back.
    await moderator.page.goto(`${server.url}/moderation`);
    await waitForHydration(moderator.page);
    const removed = moderator.page.getByTestId('removed').locator('li').filter({ hasText: 'Cheap pills at spam.example' });
    await removed.getByLabel(/Reason/).fill('Appeal upheld');
    await removed.getByRole('button', { name: 'Restore' }).click();
    await expect.poll(() => commentsSeenAnonymously(blogId)).toEqual(['Cheap pills at spam.example']);

    // The audit log lists every action of the run, with actor, target and reason.
    await moderator.page.goto(`${server.url}/moderation`);
    const log = await moderator.page.getByTestId('audit-log').locator('tbody tr').allTextContents();
    expect(log).toHaveLength(3);
    expect(log[0]).toMatch(/Mona Moderator.*restore.*comment.*Appeal upheld/);
    expect(log[1]).toMatch(/Mona Moderator.*hide.*comment.*Spam links/);
    expect(log[2]).toMatch(/operator.*grant_admin.*user.*operator command line/);
  });

  it('looks right on a phone and in the dark', async () => {
    const moderator = await open({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    const mod = await signUp(moderator.context, server.url, { name: 'Dark Mod' });
    grantAdmin(mod.email);
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Another Writer' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Night ferry', photo: await uploadPhoto(writer.context, server.url) });
    await moderator.context.request.post(`${server.url}/api/reports`, { headers: { origin: server.url }, data: { targetType: 'blog', targetId: blogId, reason: 'Copyright', details: 'My photo' } });
    await moderator.page.goto(`${server.url}/moderation`);
    await waitForHydration(moderator.page);
    expect(await axeViolations(moderator.page)).toEqual([]);
    await screenshot(moderator.page, 'moderation-queue-phone-dark');
    await moderator.page.goto(`${server.url}/blogs/${blogId}`);
    await waitForHydration(moderator.page);
    await moderator.page.getByTestId('report-blog').locator('summary').click();
    await screenshot(moderator.page, 'moderation-report-dialog-phone-dark');
  });

  it('a commenter edits their comment (marked edited); the blog’s owner deletes it', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Owen Owner' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Tide tables', photo: await uploadPhoto(writer.context, server.url) });
    const commenter = await open();
    await signUp(commenter.context, server.url, { name: 'Tess Typo' });
    await commenter.context.request.patch(`${server.url}/api/blogs/${blogId}`, { headers: { origin: server.url }, data: { commentText: 'Lovley' } });

    await commenter.page.goto(`${server.url}/blogs/${blogId}`);
    await waitForHydration(commenter.page);
    const mine = commenter.page.getByTestId('comments').locator('li').first();
    await mine.locator('summary', { hasText: 'Edit' }).click();
    await mine.getByLabel('Comment').fill('Lovely');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => commentsSeenAnonymously(blogId)).toEqual(['Lovely']);
    await expect.poll(() => mine.textContent()).toContain('edited');

    await writer.page.goto(`${server.url}/blogs/${blogId}`);
    await waitForHydration(writer.page);
    await writer.page.getByTestId('comments').locator('li').first().getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => commentsSeenAnonymously(blogId)).toEqual([]);
  });
});
