import { describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '../support/databases';
import { useServer } from '../support/server';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { screenshot, scrollToElement, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { seedBlogs, seededPhoto } from '../support/home-seed';

/**
 * The end of a post (docs/decisions/061): share, the writer's previous and next posts, her
 * newest others, and the follow prompt; and the writer's photo in the byline. On each database.
 */
describe.each(TEST_DIALECTS)('the end of a post on %s', (dialect) => {
  const server = useServer({}, dialect);
  const { open } = useBrowsers();

  /** A writer with a photo of her own and five Public posts (and a draft), oldest first. */
  async function writerWithPosts(name: string) {
    const writer = await open();
    const user = await signUp(writer.context, server.url, { name });
    const photo = await seededPhoto(writer.context, server.url, 3);
    const res = await writer.context.request.patch(`${server.url}/api/update/${encodeURIComponent(user.email)}`, { headers: { origin: server.url }, data: { name, photo } });
    expect(res.status()).toBe(200);
    const ids = await seedBlogs(writer.context, server.url, [
      { title: 'One' },
      { title: 'Two' },
      { title: 'A draft', availability: 'Hidden' },
      { title: 'Three' },
      { title: 'Four' },
      { title: 'Five' },
    ]);
    return { writer, photo, ids: { one: ids[0]!, two: ids[1]!, three: ids[3]!, four: ids[4]!, five: ids[5]! } };
  }

  it('shows a reader the previous and next posts, more from the writer, the byline photo, and a way to follow; copy link copies the address', async () => {
    const { photo, ids } = await writerWithPosts('Wren Writer');
    const reader = await open({ viewport: VIEWPORTS.desktop });
    await reader.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const { page } = reader;
    await page.goto(`${server.url}/blogs/${ids.three}`);
    await waitForHydration(page);

    // The byline carries the writer's own photo, not the default avatar.
    const byline = page.locator('header img[width="44"]');
    expect(await byline.getAttribute('src')).toBe(photo);

    const end = page.getByTestId('post-end');
    await scrollToElement(end);
    const neighbours = end.getByRole('navigation', { name: 'More posts by Wren Writer' });
    expect(await neighbours.getByRole('link').allTextContents()).toEqual(['← Previous postTwo', 'Next post →Four']);
    expect(await neighbours.getByRole('link', { name: /Previous post/ }).getAttribute('href')).toBe(`/blogs/${ids.two}/two`);
    expect(await end.getByRole('heading', { name: 'More from Wren Writer' }).count()).toBe(1);
    // The newest others, apart from the two neighbours; the draft is nobody's.
    expect(await end.getByTestId('more-from-writer').getByRole('heading').allTextContents()).toEqual(['Five', 'One']);

    // Signed out: log in to follow (and back here), or the newsletter.
    const prompt = end.getByTestId('follow-prompt');
    expect(await prompt.textContent()).toContain('Enjoyed this? Log in to follow Wren Writer');
    expect(await prompt.getByRole('link', { name: 'Log in to follow' }).getAttribute('href')).toBe(`/login?redirectTo=%2Fblogs%2F${ids.three}%2Fthree`);
    expect(await prompt.getByRole('link', { name: 'Get the newsletter' }).getAttribute('href')).toBe('/newsletter');

    // Copy link puts the page's own address on the clipboard; the share sheet is offered only where the browser has one.
    await end.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByText('Link copied.').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/blogs/${ids.three}/three`);
    const hasSheet = await page.evaluate(() => typeof navigator.share === 'function');
    expect(await end.getByRole('button', { name: 'Share…' }).count()).toBe(hasSheet ? 1 : 0);
    expect(await axeViolations(page)).toEqual([]);

    // The first post has no previous one.
    await page.goto(`${server.url}/blogs/${ids.one}`);
    expect(await page.getByTestId('post-neighbours').getByRole('link').allTextContents()).toEqual(['Next post →Two']);
  });

  it('hands the system share sheet the title, excerpt and address where the browser has one', async () => {
    const { ids } = await writerWithPosts('Sasha Sharer');
    const reader = await open({ viewport: VIEWPORTS.phone });
    // Chromium on Linux has no share sheet; a page script stands in for the device's, recording what it is given.
    await reader.context.addInitScript(() => {
      Object.defineProperty(navigator, 'share', {
        value: (data: ShareData) => {
          (window as unknown as { shared: ShareData }).shared = data;
          return Promise.resolve();
        },
      });
    });
    await reader.page.goto(`${server.url}/blogs/${ids.two}`);
    await waitForHydration(reader.page);
    await reader.page.getByTestId('post-end').getByRole('button', { name: 'Share…' }).click();
    await expect.poll(() => reader.page.evaluate(() => (window as unknown as { shared?: ShareData }).shared)).toEqual({
      title: 'Two',
      text: 'A short story about two.',
      url: `${server.url}/blogs/${ids.two}/two`,
    });
  });

  it('stays right on a kept page: a new post by the writer shows on her other posts at once', async () => {
    const { writer, ids } = await writerWithPosts('Kai Kept');
    const html = async () => {
      const res = await fetch(`${server.url}/blogs/${ids.five}`);
      return { cache: res.headers.get('x-cache'), body: await res.text() };
    };
    await html();
    const kept = await html();
    expect(kept.cache).toBe('HIT');
    expect(kept.body).not.toContain('Six');
    const [six] = await seedBlogs(writer.context, server.url, [{ title: 'Six' }]);
    const fresh = await html();
    expect(fresh.cache).toBe('MISS');
    expect(fresh.body).toContain(`href="/blogs/${six}/six"`);
    // Another writer's post leaves it kept.
    const other = await open();
    await signUp(other.context, server.url, { name: 'Olive Other' });
    await seedBlogs(other.context, server.url, [{ title: 'Elsewhere' }]);
    await html();
    expect((await html()).cache).toBe('HIT');
  });

  it('offers a signed-in reader the follow button until she follows; the writer sees no prompt', async () => {
    const { writer, ids } = await writerWithPosts('Fern Followed');
    const reader = await open({ viewport: VIEWPORTS.phone, colorScheme: 'dark' });
    await signUp(reader.context, server.url, { name: 'Rhea Reader' });
    const { page } = reader;
    await page.goto(`${server.url}/blogs/${ids.four}`);
    await waitForHydration(page);
    const prompt = page.getByTestId('follow-prompt');
    expect(await prompt.textContent()).toContain('Enjoyed this? Follow Fern Followed and their new posts come to your inbox.');
    await scrollToElement(prompt);
    expect(await axeViolations(page)).toEqual([]);
    await prompt.getByRole('button', { name: 'Follow Fern Followed' }).click();
    await expect.poll(() => page.getByTestId('follow-prompt').count()).toBe(0);
    // The byline's button says so too.
    expect(await page.getByRole('button', { name: 'Unfollow Fern Followed' }).count()).toBe(1);

    await writer.page.goto(`${server.url}/blogs/${ids.four}`);
    await waitForHydration(writer.page);
    expect(await writer.page.getByTestId('post-end').count()).toBe(1);
    expect(await writer.page.getByTestId('follow-prompt').count()).toBe(0);
  });

  it('agrees with the byline: a reader who follows there, far above the end, is offered no second follow when she reaches it', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Bea Byline' });
    const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of a long evening by the water.`).join('\n\n');
    const [id] = await seedBlogs(writer.context, server.url, [{ title: 'A long evening', long_description: long }]);
    const reader = await open({ viewport: VIEWPORTS.phone });
    await signUp(reader.context, server.url, { name: 'Remy Reader' });
    const { page } = reader;
    await page.goto(`${server.url}/blogs/${id}`);
    await waitForHydration(page);
    // The end is far below: still the server's copy, its follow prompt included.
    expect(await page.getByTestId('follow-prompt').count()).toBe(1);
    expect(await page.locator('[data-live] [data-testid="post-end"]').count()).toBe(0);

    const documents: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request.url());
    });
    await page.getByRole('button', { name: 'Follow Bea Byline' }).first().click();
    await expect.poll(() => page.getByRole('button', { name: 'Unfollow Bea Byline' }).count()).toBe(1);
    // Without scrolling, and without loading the page again, the end says the same: no prompt.
    await expect.poll(() => page.getByTestId('follow-prompt').count()).toBe(0);
    expect(await page.locator('[data-live] [data-testid="post-end"]').count()).toBe(1);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(300);
    expect(documents).toEqual([]);
    await scrollToElement(page.getByTestId('post-end'));
    expect(await page.getByRole('button', { name: 'Follow Bea Byline', exact: true }).count()).toBe(0);
    if (dialect === 'sqlite') await screenshot(page, 'post-end-after-byline-follow-phone');

    // Unfollowing from the byline brings the prompt back, the end being live now.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.getByRole('button', { name: 'Unfollow Bea Byline' }).click();
    await expect.poll(() => page.getByTestId('follow-prompt').count()).toBe(1);
  });

  it('looks right at both widths in both themes (screenshots) with no axe violation', async () => {
    const { ids } = await writerWithPosts('Lena Looked');
    for (const [width, viewport] of [['phone', VIEWPORTS.phone], ['desktop', VIEWPORTS.desktop]] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const reader = await open({ viewport, colorScheme: theme });
        await reader.page.goto(`${server.url}/blogs/${ids.three}`);
        await waitForHydration(reader.page);
        await reader.page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await reader.page.reload();
        await waitForHydration(reader.page);
        const end = reader.page.getByTestId('post-end');
        await scrollToElement(end);
        expect(await reader.page.evaluate(() => document.documentElement.scrollWidth)).toBe(viewport.width);
        expect(await axeViolations(reader.page)).toEqual([]);
        if (dialect === 'sqlite') await end.screenshot({ path: `tests/e2e/screenshots/post-end-${width}-${theme}.png` });
        if (dialect === 'sqlite' && width === 'phone' && theme === 'light') await screenshot(reader.page, 'post-end-page-phone-light');
      }
    }
  });
});
