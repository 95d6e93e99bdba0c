// docs/decisions/026: a form sent after the session ended (signed out in another tab, expired) shows
// the screen's failure message with a way to sign in that returns to the page, and keeps what
// was typed — with and without JavaScript. Nothing is saved.
import { describe, expect, it } from 'vitest';
import { refused, useBrowsers } from '../support/browser';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { type Browser, screenshot, scrollToLive, waitForHydration } from '../support/browser';
import { expectDialog } from '../support/dialogs';

const server = useServer();

// The refused post itself is logged by the browser as a failed (401) request; nothing else may be.
const { open } = useBrowsers({ allowed: refused(401) });

/** A writer with one blog of their own, and a blog by someone else to comment on. */
async function setUp(javaScriptEnabled: boolean) {
  const other = await open();
  await signUp(other.context, server.url);
  const theirs = await seedBlog(other.context, server.url, { title: 'Someone else’s sunset', photo: await uploadPhoto(other.context, server.url) });
  const browser = await open({ javaScriptEnabled });
  await signUp(browser.context, server.url, { name: 'Session Writer' });
  const mine = await seedBlog(browser.context, server.url, { title: 'My own sunset', photo: await uploadPhoto(browser.context, server.url) });
  return { browser, page: browser.page, theirs, mine };
}

async function ready(page: Browser['page'], path: string, javaScriptEnabled: boolean) {
  await page.goto(`${server.url}${path}`);
  if (javaScriptEnabled) await waitForHydration(page);
  if (javaScriptEnabled && path.startsWith('/blogs/')) await scrollToLive(page, '#comments');
}

const signInLink = (page: Browser['page']) => page.getByTestId('signed-out-notice').getByRole('link', { name: 'Log in again' });

for (const javaScriptEnabled of [true, false]) {
  describe(`a form sent after the session ended (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`, () => {
    it('comment: "Failed to comment 😥", the text kept, a sign-in link back to the comments', async () => {
      const { browser, page, theirs } = await setUp(javaScriptEnabled);
      await ready(page, `/blogs/${theirs}`, javaScriptEnabled);
      const text = 'Typed while my session quietly ended';
      await page.getByLabel('Comment', { exact: true }).fill(text);
      await browser.context.clearCookies();
      await page.getByRole('button', { name: 'Post Comment' }).click();

      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Failed to comment 😥' }).count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Comment', { exact: true }).inputValue()).toBe(text);
      expect(await signInLink(page).getAttribute('href')).toBe(`/login?redirectTo=${encodeURIComponent(`/blogs/${theirs}#comments`)}`);
      expect(page.url()).not.toContain('/login');
      const blog = (await (await fetch(`${server.url}/api/blogs/${theirs}`)).json()) as { comments: unknown[] };
      expect(blog.comments).toHaveLength(0);
      await screenshot(page, `session-gone-comment-js-${javaScriptEnabled ? 'on' : 'off'}`);
    });

    it('edit blog: "Update Failed", the typed fields kept, nothing saved', async () => {
      const { browser, page, mine } = await setUp(javaScriptEnabled);
      await ready(page, `/updateBlog/${mine}`, javaScriptEnabled);
      await page.getByLabel('Title').fill('A title typed after sign-out');
      await page.getByLabel('Short description').fill('Kept, not lost.');
      await browser.context.clearCookies();
      await page.getByRole('button', { name: 'Update Blog' }).click();

      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Update Failed' }).count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Title').inputValue()).toBe('A title typed after sign-out');
      expect(await page.getByLabel('Short description').inputValue()).toBe('Kept, not lost.');
      expect(await signInLink(page).getAttribute('href')).toBe(`/login?redirectTo=${encodeURIComponent(`/updateBlog/${mine}`)}`);
      const blog = (await (await fetch(`${server.url}/api/blogs/${mine}`)).json()) as { title: string };
      expect(blog.title).toBe('My own sunset');
    });

    it('profile: "Error" / "Failed to update profile", the name kept, a sign-in link back', async () => {
      const { browser, page } = await setUp(javaScriptEnabled);
      await ready(page, '/update-profile', javaScriptEnabled);
      await page.getByLabel('Full Name').fill('Renamed Too Late');
      await browser.context.clearCookies();
      await page.getByRole('button', { name: 'Save Changes' }).click();

      await expect.poll(() => page.getByTestId('profile-error').filter({ hasText: 'Failed to update profile' }).count()).toBeGreaterThan(0);
      expect(await page.getByLabel('Full Name').inputValue()).toBe('Renamed Too Late');
      expect(await signInLink(page).getAttribute('href')).toBe(`/login?redirectTo=${encodeURIComponent('/update-profile')}`);

      // With JavaScript the failure is also a dialog; once it is closed the link is there to use.
      if (javaScriptEnabled) await (await expectDialog(page, 'Error', 'Failed to update profile')).getByRole('button', { name: 'OK' }).click();
      // The link opens the login page in a new tab, leaving the typed form here.
      const [tab] = await Promise.all([browser.context.waitForEvent('page'), signInLink(page).click()]);
      await tab.waitForLoadState();
      expect(new URL(tab.url()).pathname).toBe('/login');
      await tab.close();
    });
  });
}
