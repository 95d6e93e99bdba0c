import { describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { TEST_DIALECTS } from '../support/databases';
import { seedBlogs } from '../support/home-seed';
import { useServer } from '../support/server';

/**
 * Tags, readable addresses and the writer's view counts (docs/decisions/069), in a real browser
 * against the built server, on each database.
 */
describe.each(TEST_DIALECTS)('tags and readable addresses on %s', (dialect) => {
  const server = useServer({}, dialect);
  const { open } = useBrowsers();

  it('tags a post with a suggestion, opens the tag page and its feed, follows an old address to a 301, and hides views when chosen', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Tilde Tagger' });
    const [first, second] = await seedBlogs(writer.context, server.url, [{ title: 'Stars over the pier' }, { title: 'Lamps at dusk' }]);
    const tagged = await writer.context.request.put(`${server.url}/api/blogs/${first}`, { headers: { origin: server.url }, data: { tags: ['Night-sky', 'harbour'] } });
    expect(tagged.status()).toBe(200);

    // The second post gets its tag through the form, picked from the suggestions.
    const { page } = writer;
    await page.goto(`${server.url}/updateBlog/${second}`);
    await waitForHydration(page);
    await page.getByLabel('Tags').fill('nig');
    const suggestion = page.getByRole('button', { name: 'Add tag Night-sky' });
    await suggestion.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    if (dialect === 'sqlite') await screenshot(page, 'tags-suggestions-desktop');
    await suggestion.click();
    expect(await page.getByLabel('Tags').inputValue()).toBe('Night-sky, ');
    await page.getByLabel('Tags').pressSequentially('dusk');
    await page.getByRole('button', { name: 'Update Blog' }).click();
    await page.waitForURL(/\/allblogs$/);
    const post = await (await writer.context.request.get(`${server.url}/api/blogs/${second}`)).json() as { slug: string; tags: string[] };
    expect(post).toMatchObject({ slug: 'lamps-at-dusk', tags: ['Night-sky', 'dusk'] });

    // A reader opens the post by its readable address, and the tag page from its tags.
    const reader = await open({ viewport: VIEWPORTS.phone });
    await reader.page.goto(`${server.url}/blogs/${second}/lamps-at-dusk`);
    const canonical = await reader.page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toBe(`${server.url}/blogs/${second}/lamps-at-dusk`);
    await reader.page.getByTestId('tag-list').getByRole('link', { name: '#Night-sky' }).click();
    await reader.page.waitForURL(/\/tags\/night-sky$/);
    await expect.poll(() => reader.page.getByTestId('tag-count').textContent()).toBe('2 posts');
    expect(await reader.page.getByTestId('blog-card').count()).toBe(2);
    for (const colorScheme of ['light', 'dark'] as const) {
      await reader.page.emulateMedia({ colorScheme });
      // The theme is chosen as the page loads.
      await reader.page.reload();
      expect(await axeViolations(reader.page), colorScheme).toEqual([]);
      if (dialect === 'sqlite') await screenshot(reader.page, `tag-page-phone-${colorScheme}`);
    }
    if (dialect === 'sqlite') {
      await page.setViewportSize(VIEWPORTS.desktop);
      await page.goto(`${server.url}/tags/night-sky`);
      await screenshot(page, 'tag-page-desktop');
    }
    const feed = await fetch(`${server.url}/tags/night-sky/feed.xml`);
    expect(feed.headers.get('content-type')).toContain('application/atom+xml');
    const atom = await feed.text();
    expect(atom).toContain('Stars over the pier');
    expect(atom).toContain(`${server.url}/blogs/${second}/lamps-at-dusk`);
    expect(await (await fetch(`${server.url}/tags/no-such-tag`)).status).toBe(404);

    // A rename: the old address answers 301 to the new one; /blogs/{id} still answers.
    const renamed = await writer.context.request.put(`${server.url}/api/blogs/${first}`, { headers: { origin: server.url }, data: { title: 'Stars over the harbour' } });
    expect(renamed.status()).toBe(200);
    const old = await fetch(`${server.url}/blogs/${first}/stars-over-the-pier`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(new URL(old.headers.get('location')!, server.url).pathname).toBe(`/blogs/${first}/stars-over-the-harbour`);
    await reader.page.goto(`${server.url}/blogs/${first}/stars-over-the-pier`);
    expect(new URL(reader.page.url()).pathname).toBe(`/blogs/${first}/stars-over-the-harbour`);
    expect((await fetch(`${server.url}/blogs/${first}`)).status).toBe(200);

    // Her view counts: shown by default, then hers alone.
    await reader.page.goto(`${server.url}/blogs/${first}`);
    await reader.page.getByTestId('views').waitFor();
    await page.goto(`${server.url}/profile/stats`);
    await page.getByLabel('Show how many times my posts were read').uncheck();
    await page.getByTestId('show-views-form').getByRole('button', { name: 'Save' }).click();
    await page.waitForLoadState('networkidle');
    expect(await page.getByLabel('Show how many times my posts were read').isChecked()).toBe(false);
    await reader.page.reload();
    await reader.page.getByRole('heading', { level: 1, name: 'Stars over the harbour' }).waitFor();
    expect(await reader.page.getByTestId('views').count()).toBe(0);
    await page.goto(`${server.url}/blogs/${first}`);
    await page.getByTestId('views').waitFor();
    if (dialect === 'sqlite') {
      await screenshot(reader.page, 'tags-post-phone');
      await screenshot(page, 'tags-post-desktop-owner');
    }
    expect(writer.errors).toEqual([]);
    expect(reader.errors).toEqual([]);
  });
});
