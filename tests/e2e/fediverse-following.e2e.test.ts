import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAISY_THEME } from '~/lib/page/theme';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { TEST_DIALECTS } from '../support/dialects';
import { eventually } from '../support/eventually';
import { linkedAuthorId } from '../support/instances';
import { freePort } from '../support/processes.js';
import { type RunningServer, startServerOn } from '../support/server';

const { open } = useBrowsers();

async function startInstance(dialect: (typeof TEST_DIALECTS)[number], siteName: string): Promise<RunningServer> {
  const port = await freePort();
  return startServerOn(dialect, { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, FEDERATION_ALLOW_PRIVATE: 'on', SITE_NAME: siteName });
}

interface BlogJson {
  title: string;
  comments?: { _id: string; commentText: string; remote?: { handle: string } }[];
}
const blogJson = async (base: string, id: string) => (await (await fetch(`${base}/api/blogs/${id}`)).json()) as BlogJson;

/** Shows /following in a theme (the site's own theme switch, as a reader's choice sets it). */
async function inTheme(page: Page, theme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: theme });
  await page.evaluate((name) => document.documentElement.setAttribute('data-theme', name), DAISY_THEME[theme]);
  // The colours glide to the new theme: axe reads them once every transition has ended.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

// Two Afterglow sites as real servers, each with its own data: A on SQLite, B on PostgreSQL when
// the tests have one (so one run crosses both databases).
describe('two Afterglow sites: a reader on one follows a writer on the other (docs/decisions/081)', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    [a, b] = await Promise.all([startInstance('sqlite', 'Dusk'), startInstance(TEST_DIALECTS.at(-1)!, 'Dawn')]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('follows by handle, reads the posts on /following, replies; moderation, edits and deletions reach across', async () => {
    const hostA = new URL(a.url).host;
    const hostB = new URL(b.url).host;
    const writer = await open({ viewport: VIEWPORTS.desktop });
    await signUp(writer.context, a.url, { name: 'Wren Writer' });
    const photo = await uploadPhoto(writer.context, a.url);
    const first = await seedBlog(writer.context, a.url, { title: 'Before anyone followed', photo });
    const writerId = await linkedAuthorId(`${a.url}/blogs/${first}`);

    // "Follow from your server" on her author page sends a reader to their own server's follow page.
    const reader = await open({ viewport: VIEWPORTS.desktop });
    await signUp(reader.context, b.url, { name: 'Rhea Reader' });
    const page = reader.page;
    await page.goto(`${a.url}/authors/${writerId}`);
    await waitForHydration(page);
    // A retried run finds the first run's name taken: the handle is read from her page.
    const handle = /@wren_writer\d*@[^\s]+?(?=Copy)/.exec((await page.getByTestId('fediverse-handle').textContent()) ?? '')?.[0] ?? '';
    expect(handle.startsWith('@wren_writer') && handle.endsWith(`@${hostA}`)).toBe(true);
    await page.getByLabel('Follow from your server').fill(hostB);
    await page.getByRole('button', { name: 'Go' }).click();
    await page.waitForURL(`${b.url}/authorize_interaction?**`);
    expect(await page.getByTestId('interaction').textContent()).toContain(handle);
    await waitForHydration(page);
    expect(await axeViolations(page)).toEqual([]);

    // She follows by handle on /following; the follow waits for the writer's site to accept it.
    await page.goto(`${b.url}/following`);
    await waitForHydration(page);
    await page.getByLabel('Handle or profile address').fill(handle);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    const followed = page.getByTestId('remote-following-list');
    await followed.getByText(handle).waitFor();
    await eventually('the Accept', async () => {
      await page.reload();
      return (await followed.textContent())?.includes(handle) === true && !(await followed.textContent())?.includes('Waiting for approval');
    });

    // She follows a writer on her own site too, whose post comes before the others.
    const neighbour = await open({ viewport: VIEWPORTS.desktop });
    await signUp(neighbour.context, b.url, { name: 'Nell Neighbour' });
    const nearby = await seedBlog(neighbour.context, b.url, { title: 'Next door at noon', photo: await uploadPhoto(neighbour.context, b.url) });
    const neighbourId = await linkedAuthorId(`${b.url}/blogs/${nearby}`);
    const followedHere = await reader.context.request.post(`${b.url}/follow`, { headers: { origin: b.url }, form: { writerId: neighbourId, intent: 'follow' }, maxRedirects: 0 });
    expect(followedHere.status()).toBe(302);

    // The writer publishes two posts; both arrive, marked with her name and handle, linked to the original.
    const dusk = await seedBlog(writer.context, a.url, { title: 'Harbour at dusk', photo });
    const tide = await seedBlog(writer.context, a.url, { title: 'Low tide notes', photo });
    const posts = page.getByTestId('remote-post');
    await eventually('both posts on /following', async () => {
      await page.reload();
      return (await posts.count()) === 2;
    });
    await waitForHydration(page);
    const duskCard = posts.filter({ hasText: 'Harbour at dusk' });
    expect(await duskCard.textContent()).toContain('Wren Writer');
    expect(await duskCard.textContent()).toContain(handle);
    expect(await duskCard.getByRole('link', { name: /^Read on their site/ }).getAttribute('href')).toMatch(new RegExp(`^${a.url}/blogs/${dusk}/`));
    expect(await page.getByTestId('following-posts').textContent()).not.toContain('Before anyone followed');
    // One stream by date: the newest first, whichever site it came from.
    const stream = await page.getByTestId('following-posts').locator(':scope > li h3').allTextContents();
    expect(stream).toEqual(['Low tide notes', 'Harbour at dusk', 'Next door at noon']);

    for (const theme of ['light', 'dark'] as const) {
      await inTheme(page, theme);
      expect(await axeViolations(page)).toEqual([]);
      for (const [name, viewport] of [['desktop', VIEWPORTS.desktop], ['phone', VIEWPORTS.phone]] as const) {
        await page.setViewportSize(viewport);
        await screenshot(page, `fediverse-following-${name}-${theme}`);
      }
      await page.setViewportSize(VIEWPORTS.desktop);
    }
    await inTheme(page, 'light');

    // Her reply goes through her own site and becomes a comment under the post, by her handle.
    await duskCard.getByLabel(/^Reply/).fill('The light on the water!');
    await duskCard.getByRole('button', { name: 'Send reply' }).click();
    await page.getByTestId('my-remote-reply').filter({ hasText: 'The light on the water!' }).waitFor();
    let commentId = '';
    await eventually('the reply as a comment there', async () => {
      const comment = (await blogJson(a.url, dusk)).comments?.find((c) => c.commentText === 'The light on the water!');
      commentId = comment?._id ?? '';
      return comment?.remote?.handle?.startsWith('@rhea_reader') === true && comment.remote.handle.endsWith(`@${hostB}`);
    });
    await writer.page.goto(`${a.url}/blogs/${dusk}`);
    const comment = writer.page.getByTestId('comment').filter({ hasText: 'The light on the water!' });
    await comment.waitFor();
    expect(await comment.textContent()).toMatch(new RegExp(`@rhea_reader\\d*@${hostB}`));

    // The writer's site's moderator hides it.
    const moderator = await open({ viewport: VIEWPORTS.desktop });
    const mod = await signUp(moderator.context, a.url, { name: 'Mona Moderator' });
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', mod.email], { env: { ...process.env, DATA_DIR: a.dataDir, LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    const hidden = await moderator.context.request.post(`${a.url}/api/moderation/comments/${commentId}/hide`, { headers: { origin: a.url }, data: { reason: 'Off topic' } });
    expect(hidden.ok()).toBe(true);
    expect((await blogJson(a.url, dusk)).comments?.some((c) => c.commentText === 'The light on the water!')).toBe(false);

    // Her edit and her deletion of the other post follow on /following.
    const edited = await writer.context.request.put(`${a.url}/api/blogs/${tide}`, {
      headers: { origin: a.url },
      data: { title: 'Low tide, revised', category: 'Travelling & Photography', type: 'written content', short_description: 'Seeded for a browser test.', long_description: 'Edited.', availability: 'Public', photo },
    });
    expect(edited.ok()).toBe(true);
    await eventually('the edit on /following', async () => {
      await page.reload();
      return (await posts.filter({ hasText: 'Low tide, revised' }).count()) === 1;
    });
    expect((await writer.context.request.delete(`${a.url}/api/blogs/${tide}`, { headers: { origin: a.url } })).ok()).toBe(true);
    await eventually('the deletion on /following', async () => {
      await page.reload();
      return (await posts.count()) === 1;
    });

    // The moderator blocks the reader's whole site: a later reply from there never shows.
    await moderator.page.goto(`${a.url}/moderation/fediverse`);
    await waitForHydration(moderator.page);
    await moderator.page.getByLabel('Account or server').fill(hostB);
    await moderator.page.getByLabel('Reason').fill('Spam from there');
    await moderator.page.getByRole('button', { name: 'Block', exact: true }).click();
    await moderator.page.getByTestId('fediverse-blocks').getByText(hostB).waitFor();
    await duskCard.getByLabel(/^Reply/).fill('Still here?');
    await duskCard.getByRole('button', { name: 'Send reply' }).click();
    await page.getByTestId('my-remote-reply').filter({ hasText: 'Still here?' }).waitFor();
    // Nothing comes back from a blocked site to wait for: its delivery is given time, then checked.
    await new Promise((r) => setTimeout(r, 4000));
    expect((await blogJson(a.url, dusk)).comments?.map((c) => c.commentText)).toEqual([]);
  }, 240_000);
});
