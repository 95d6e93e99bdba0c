import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startServer, useServer } from '../support/server';
import { useBrowsers } from '../support/browser';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, scrollToLive, VIEWPORTS, waitForHydration } from '../support/browser';

const server = useServer();
const { open } = useBrowsers({ allowed: /the server responded with a status of 404 / });


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
    const log = await moderator.page.getByTestId('audit-log').locator('li').allTextContents();
    expect(log).toHaveLength(3);
    // In names and words (decision 061), not ids and codes.
    expect(log[0]).toMatch(/Mona Moderator.*restored a comment on “Harbour at dusk”.*Appeal upheld/);
    expect(log[1]).toMatch(/Mona Moderator.*hid a comment on “Harbour at dusk”.*Spam links/);
    expect(log[2]).toMatch(/operator made Mona Moderator an admin.*operator command line/);
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
    await scrollToLive(commenter.page, '#comments');
    const mine = commenter.page.getByTestId('comments').locator('li').first();
    await mine.getByRole('link', { name: 'Edit' }).click();
    await mine.getByLabel('Comment').fill('Lovely');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => commentsSeenAnonymously(blogId)).toEqual(['Lovely']);
    await expect.poll(() => mine.textContent()).toContain('edited');

    await writer.page.goto(`${server.url}/blogs/${blogId}`);
    await waitForHydration(writer.page);
    await writer.page.getByTestId('comments').locator('li').first().getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => commentsSeenAnonymously(blogId)).toEqual([]);
  });

  it('a comment is edited without JavaScript: Edit is a link, Save a plain form post', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Nora Noscript' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Lamplight', photo: await uploadPhoto(writer.context, server.url) });
    const commenter = await open({ javaScriptEnabled: false });
    await signUp(commenter.context, server.url, { name: 'Pat Plain' });
    await commenter.context.request.patch(`${server.url}/api/blogs/${blogId}`, { headers: { origin: server.url }, data: { commentText: 'Beatiful' } });

    await commenter.page.goto(`${server.url}/blogs/${blogId}`);
    const mine = commenter.page.getByTestId('comments').locator('li').first();
    expect(await mine.getByLabel('Comment').count()).toBe(0);
    await mine.getByRole('link', { name: 'Edit' }).click();
    await commenter.page.waitForURL(/editComment=/);
    await mine.getByLabel('Comment').fill('Beautiful');
    await Promise.all([commenter.page.waitForURL((url) => !url.search.includes('editComment')), mine.getByRole('button', { name: 'Save' }).click()]);
    expect(await commentsSeenAnonymously(blogId)).toEqual(['Beautiful']);
    expect(await mine.textContent()).toContain('edited');
    expect(await mine.getByLabel('Comment').count()).toBe(0);
  });

  it('a reader reports a writer from their author page; only staff see Moderation in the user menu', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Rex Rude' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Loud opinions', photo: await uploadPhoto(writer.context, server.url) });
    const moderator = await open();
    const mod = await signUp(moderator.context, server.url, { name: 'Milo Moderator' });
    grantAdmin(mod.email);

    const reader = await open();
    await signUp(reader.context, server.url, { name: 'Rita Reader' });
    await reader.page.goto(`${server.url}/blogs/${blogId}`);
    await reader.page.getByTestId('author').click();
    await reader.page.waitForURL(/\/authors\//);
    await waitForHydration(reader.page);
    const report = reader.page.getByTestId('report-user');
    await report.locator('summary').click();
    await report.getByLabel('Reason').selectOption('Harassment or hate');
    await report.getByLabel(/Anything else/).fill('Insults in every comment');
    await screenshot(reader.page, 'moderation-report-author-desktop-light');
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect.poll(() => reader.page.getByText('Thank you. A moderator will look at it.').count()).toBeGreaterThan(0);
    // A writer's menu has no Moderation link; the admin's does, and it leads to the queue.
    await reader.page.getByTestId('user-menu').locator('summary').click();
    expect(await reader.page.getByTestId('moderation-link').count()).toBe(0);

    await moderator.page.goto(server.url);
    await waitForHydration(moderator.page);
    await moderator.page.getByTestId('user-menu').locator('summary').click();
    await moderator.page.getByTestId('moderation-link').click();
    await moderator.page.waitForURL(/\/moderation$/);
    const item = moderator.page.getByTestId('queue-item').filter({ hasText: 'Insults in every comment' });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('Rex Rude');
    expect(await item.getByRole('link', { name: 'open' }).getAttribute('href')).toMatch(/^\/authors\//);
  });

  it('spam hold: a new writer’s link-heavy blog waits with a note; a moderator approves the account and it appears', async () => {
    const held = await startServer({ SPAM_HOLD_DAYS: '3', SPAM_HOLD_MAX_LINKS: '2' });
    try {
      // The site's first account is trusted (decision 061): the moderator signs up first.
      const moderator = await open({ colorScheme: 'dark' });
      const mod = await signUp(moderator.context, held.url, { name: 'Dana Dark' });
      const writer = await open({ viewport: VIEWPORTS.phone });
      await signUp(writer.context, held.url, { name: 'Newt Newcomer' });
      const blogId = await seedBlog(writer.context, held.url, {
        title: 'My favourite links',
        long_description: 'https://one.example https://two.example https://three.example',
        photo: await uploadPhoto(writer.context, held.url),
      });
      await writer.page.goto(`${held.url}/blogs/${blogId}`);
      await waitForHydration(writer.page);
      expect(await writer.page.getByTestId('waiting-notice').textContent()).toContain('Waiting for a moderator');
      expect(await axeViolations(writer.page)).toEqual([]);
      await screenshot(writer.page, 'moderation-waiting-note-phone-light');
      expect((await fetch(`${held.url}/blogs/${blogId}`)).status).toBe(404);

      execFileSync(process.execPath, ['scripts/admin.js', 'grant', mod.email], { env: { ...process.env, DATA_DIR: held.dataDir, LOG_LEVEL: 'warn' } });
      await moderator.page.goto(`${held.url}/moderation`);
      await waitForHydration(moderator.page);
      const waiting = moderator.page.getByTestId('pending-item').filter({ hasText: 'My favourite links' });
      await expect.poll(() => waiting.count()).toBe(1);
      expect(await moderator.page.getByTestId('held-account').filter({ hasText: 'Newt Newcomer' }).count()).toBe(1);
      expect(await axeViolations(moderator.page)).toEqual([]);
      await screenshot(moderator.page, 'moderation-pending-desktop-dark');
      await waiting.getByLabel(/Reason/).fill('A real traveller');
      await waiting.getByRole('button', { name: 'Approve account' }).click();
      await expect.poll(() => moderator.page.getByTestId('pending-item').count()).toBe(0);
      expect(await moderator.page.getByTestId('held-account').count()).toBe(0);
      expect((await fetch(`${held.url}/blogs/${blogId}`)).status).toBe(200);
      expect(await (await fetch(`${held.url}/sitemap.xml`)).text()).toContain(`/blogs/${blogId}`);
    } finally {
      await held.stop();
    }
  });
});
