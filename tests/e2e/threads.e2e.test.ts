import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, scrollToElement, scrollToLive, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { useServer } from '../support/server';

const server = useServer();
const { open } = useBrowsers();

interface ShownComment {
  _id: string;
  commentText: string;
  depth: number;
}
async function commentsSeenAnonymously(blogId: string): Promise<ShownComment[]> {
  return ((await (await fetch(`${server.url}/api/blogs/${blogId}`)).json()) as { comments: ShownComment[] }).comments;
}

/** Replies under the comment whose text is `to`, through the page's own Reply link and form. */
async function replyOnPage(page: Page, to: string, text: string) {
  const card = page.getByTestId('comment').filter({ hasText: to }).last();
  await scrollToElement(card);
  await card.getByRole('link', { name: /^Reply to / }).first().click();
  await page.getByLabel('Your reply').fill(text);
  await page.getByRole('button', { name: 'Post Reply' }).click();
  await page.getByTestId('comment').filter({ hasText: text }).first().waitFor();
}

describe('comment threads (docs/decisions/060)', () => {
  /** The journey's post and its reader's session, for the looks below. */
  let seen: { post: string; cookies: Awaited<ReturnType<BrowserContext['cookies']>> } | undefined;
  it('a reader comments, the writer replies with the Author badge, a third replies without JavaScript; pinned first, hidden gone for others', async () => {
    const writer = await open();
    await signUp(writer.context, server.url, { name: 'Wren Writer' });
    const blogId = await seedBlog(writer.context, server.url, { title: 'Lanterns on the quay', photo: await uploadPhoto(writer.context, server.url) });
    const post = `${server.url}/blogs/${blogId}`;

    const reader = await open();
    await signUp(reader.context, server.url, { name: 'Rita Reader' });
    await reader.page.goto(post);
    await waitForHydration(reader.page);
    await scrollToLive(reader.page, '#comments');
    await reader.page.getByLabel('Comment', { exact: true }).fill('Which quay was this? The light is unreal.');
    await reader.page.getByRole('button', { name: 'Post Comment' }).click();
    await reader.page.getByTestId('comment').filter({ hasText: 'The light is unreal.' }).waitFor();

    // The writer still leaves no top-level comment (the spec's words), but answers in a reply.
    await writer.page.goto(post);
    await waitForHydration(writer.page);
    expect(await writer.page.getByText("You can't comment on your own post 😥", { exact: true }).isVisible()).toBe(true);
    await replyOnPage(writer.page, 'The light is unreal.', 'The old harbour in Porto, just after nine.');
    const answer = writer.page.getByTestId('comment').filter({ hasText: 'just after nine' }).last();
    expect(await answer.getByTestId('author-badge').textContent()).toBe('Author');

    // A third reader replies to the reply with scripts off: links and form posts only.
    const third = await open({ javaScriptEnabled: false });
    await signUp(third.context, server.url, { name: 'Theo Third' });
    await third.page.goto(post);
    await replyOnPage(third.page, 'just after nine', 'Porto at nine is the best light in Europe.');
    expect((await commentsSeenAnonymously(blogId)).map((c) => [c.depth, c.commentText])).toEqual([
      [0, 'Which quay was this? The light is unreal.'],
      [1, 'The old harbour in Porto, just after nine.'],
      [2, 'Porto at nine is the best light in Europe.'],
    ]);

    // Deeper than three levels: the page links to the sub-thread's own page.
    const [, , deepest] = await commentsSeenAnonymously(blogId);
    const deeper = await reader.context.request.post(`${server.url}/api/comments/${deepest!._id}/replies`, { headers: { origin: server.url }, data: { commentText: 'Agreed, I went twice.' } });
    expect(deeper.status()).toBe(200);
    await reader.page.goto(post);
    await waitForHydration(reader.page);
    expect(await reader.page.getByText('Agreed, I went twice.').count()).toBe(0);
    await reader.page.getByTestId('continue-thread').click();
    await reader.page.getByRole('heading', { name: 'Thread' }).waitFor();
    await reader.page.getByText('Agreed, I went twice.').waitFor();
    expect(await axeViolations(reader.page)).toEqual([]);
    await screenshot(reader.page, 'threads-continue-desktop-light');

    // The writer pins a later comment (it comes first) and hides another (gone for others).
    const later = await reader.context.request.patch(`${server.url}/api/blogs/${blogId}`, { headers: { origin: server.url }, data: { commentText: 'Saved this for my trip in May.' } });
    const rude = await third.context.request.patch(`${server.url}/api/blogs/${blogId}`, { headers: { origin: server.url }, data: { commentText: 'Overrated, go to Lisbon.' } });
    expect([later.status(), rude.status()]).toEqual([200, 200]);
    await writer.page.goto(post);
    await waitForHydration(writer.page);
    await writer.page.getByTestId('comment').filter({ hasText: 'Saved this for my trip' }).getByRole('button', { name: 'Pin' }).click();
    await expect.poll(async () => (await commentsSeenAnonymously(blogId))[0]?.commentText).toBe('Saved this for my trip in May.');
    await writer.page.getByTestId('comment').filter({ hasText: 'Overrated' }).getByRole('button', { name: 'Hide' }).click();
    await expect.poll(async () => (await commentsSeenAnonymously(blogId)).some((c) => c.commentText.startsWith('Overrated'))).toBe(false);
    await writer.page.getByTestId('hidden-badge').waitFor();
    await scrollToElement(writer.page.locator('#comments'));
    expect(await axeViolations(writer.page)).toEqual([]);
    await screenshot(writer.page, 'threads-writer-desktop-light');
    await third.page.goto(post);
    expect(await third.page.getByTestId('comment').filter({ hasText: 'Overrated' }).getByTestId('hidden-badge').count()).toBe(1);
    await reader.page.goto(post);
    expect(await reader.page.getByText('Overrated, go to Lisbon.').count()).toBe(0);
    seen = { post, cookies: await reader.context.cookies() };
  }, 180_000);

  it('the thread at both widths and in both themes, with no axe violations', async () => {
    const { post, cookies } = seen!;
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const look = await open({ viewport, colorScheme });
        await look.context.addCookies(cookies);
        await look.page.goto(post);
        await waitForHydration(look.page);
        await scrollToElement(look.page.locator('#comments'));
        expect(await axeViolations(look.page), `${width} ${colorScheme}`).toEqual([]);
        await screenshot(look.page, `threads-${width}-${colorScheme}`);
        await look.close();
      }
    }
  }, 180_000);
});
