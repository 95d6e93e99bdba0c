import { Announce, Like, PUBLIC_COLLECTION } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { axeViolations } from '../support/axe';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { eventually, useFediServerAndPeer } from '../support/fedi-e2e';
import { linkedAuthorId } from '../support/instances';

const { open } = useBrowsers();

describe('likes and boosts from the fediverse on the post page (docs/decisions/080)', () => {
  const fedi = useFediServerAndPeer();

  it('a kept page shows the new count beside the local likes, in both themes, with no axe violation', async () => {
    const [server, peer] = [fedi.server(), fedi.peer()];
    const writer = await open({ viewport: VIEWPORTS.desktop });
    await signUp(writer.context, server.url, { name: 'Rosa Reach' });
    const photo = await uploadPhoto(writer.context, server.url);
    const id = await seedBlog(writer.context, server.url, { title: 'Liked far away', photo });
    const writerUri = new URL(`/ap/actors/${await linkedAuthorId(`${server.url}/blogs/${id}`)}`, server.url);
    const article = new URL(`/ap/posts/${id}`, server.url);

    // A reader's visit keeps the page before anything comes from elsewhere.
    const reader = await open({ viewport: VIEWPORTS.desktop });
    await reader.page.goto(`${server.url}/blogs/${id}`);
    expect(await reader.page.getByTestId('fediverse-reactions').count()).toBe(0);

    const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
    const toWriter = { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) };
    for (const name of ['reader', 'friend']) {
      await ctx.sendActivity({ identifier: name }, toWriter, new Like({ id: new URL(`/likes/${name}`, peer.origin), actor: peer.actorUri(name), object: article }));
    }
    await ctx.sendActivity({ identifier: 'reader' }, toWriter, new Announce({ id: new URL('/boosts/reader', peer.origin), actor: peer.actorUri('reader'), object: article, to: PUBLIC_COLLECTION }));
    await eventually('the counts in the API', async () => JSON.stringify(((await (await fetch(`${server.url}/api/blogs/${id}`)).json()) as { fediverse?: unknown }).fediverse) === '{"likes":2,"boosts":1}');

    await reader.page.goto(`${server.url}/blogs/${id}`);
    const figure = reader.page.getByTestId('fediverse-reactions');
    expect(await figure.textContent()).toBe('2 likes and 1 boost from the fediverse');
    // The local like count is the button's own, untouched.
    expect(await reader.page.locator('form[action$="/like"]').textContent()).toContain('0');

    for (const theme of ['light', 'dark'] as const) {
      const page = (await open({ viewport: VIEWPORTS.phone, colorScheme: theme })).page;
      await page.goto(`${server.url}/blogs/${id}`);
      await waitForHydration(page);
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.reload();
      await waitForHydration(page);
      const shown = page.getByTestId('fediverse-reactions');
      await shown.scrollIntoViewIfNeeded();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `federation-reactions-phone-${theme}`);
    }
  });
});
