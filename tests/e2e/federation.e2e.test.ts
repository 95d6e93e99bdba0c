import { Accept, Create, Delete, Follow, Note, PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { seedBlog, uploadPhoto } from '../support/blogs';
import { screenshot, useBrowsers, VIEWPORTS, waitForHydration } from '../support/browser';
import { eventually, useFediServerAndPeer } from '../support/fedi-e2e';
import type { FediPeer } from '../support/fedi-peer';
import { linkedAuthorId } from '../support/instances';
import type { RunningServer } from '../support/server';

const { open } = useBrowsers();

describe('the fediverse, through the built server and a peer written with Fedify (docs/decisions/068)', () => {
  const running = useFediServerAndPeer();
  let server: RunningServer;
  let peer: FediPeer;
  beforeAll(() => {
    server = running.server();
    peer = running.peer();
  });

  it('a peer follows a writer, gets her post, replies under it; she sees her handle and her follower, edits, deletes', async () => {
    const writer = await open({ viewport: VIEWPORTS.desktop });
    await signUp(writer.context, server.url, { name: 'Noor Night' });
    const photo = await uploadPhoto(writer.context, server.url);
    const first = await seedBlog(writer.context, server.url, { title: 'First light', photo });
    const writerId = await linkedAuthorId(`${server.url}/blogs/${first}`);
    const writerUri = new URL(`/ap/actors/${writerId}`, server.url);
    const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
    const toWriter = { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) };

    await ctx.sendActivity({ identifier: 'reader' }, toWriter, new Follow({ id: new URL('#follow', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    await eventually('the Accept', () => peer.received.some((a) => a instanceof Accept));

    const id = await seedBlog(writer.context, server.url, { title: 'Harbour at dusk', photo });
    await eventually('the Create', () => peer.received.some((a) => a instanceof Create && a.objectId?.href === `${server.url}/ap/posts/${id}`));

    const reply = new Note({ id: new URL('/notes/e2e', peer.origin), attribution: peer.actorUri('reader'), replyTarget: new URL(`/ap/posts/${id}`, server.url), content: '<p>What a harbour!</p>', to: PUBLIC_COLLECTION });
    await ctx.sendActivity({ identifier: 'reader' }, toWriter, new Create({ id: new URL('/notes/e2e#create', peer.origin), actor: peer.actorUri('reader'), object: reply, to: PUBLIC_COLLECTION }));
    const page = writer.page;
    await eventually('the reply on the post', async () => (await (await fetch(`${server.url}/api/blogs/${id}`)).text()).includes('What a harbour!'));
    await page.goto(`${server.url}/blogs/${id}`);
    const comment = page.getByTestId('comment').filter({ hasText: 'What a harbour!' });
    await comment.waitFor();
    expect(await comment.textContent()).toContain(`@reader@${new URL(peer.origin).host}`);

    // Her handle, on her author page, at both widths.
    const host = new URL(server.url).host;
    await page.goto(`${server.url}/authors/${writerId}`);
    await waitForHydration(page);
    expect(await page.getByTestId('fediverse-handle').textContent()).toContain(`@noor_night@${host}`);
    await screenshot(page, 'federation-author-desktop');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'federation-author-phone');
    await page.setViewportSize(VIEWPORTS.desktop);

    // Her followers elsewhere, and one removed.
    await page.goto(`${server.url}/profile/fediverse`);
    await waitForHydration(page);
    const list = page.getByTestId('fediverse-followers');
    expect(await list.textContent()).toContain(`@reader@${new URL(peer.origin).host}`);
    await screenshot(page, 'federation-followers-desktop');

    // An edit goes out as an Update, a deletion as a Delete.
    const edited = await writer.context.request.put(`${server.url}/api/blogs/${id}`, {
      headers: { origin: server.url },
      data: { title: 'Harbour at dusk, again', category: 'Travelling & Photography', type: 'written content', short_description: 'Seeded for a browser test.', long_description: 'Edited.', availability: 'Public', photo },
    });
    expect(edited.ok()).toBe(true);
    await eventually('the Update', () => peer.received.some((a) => a instanceof Update));
    expect((await writer.context.request.delete(`${server.url}/api/blogs/${id}`, { headers: { origin: server.url } })).ok()).toBe(true);
    await eventually('the Delete', () => peer.received.some((a) => a instanceof Delete && a.objectId?.href === `${server.url}/ap/posts/${id}`));

    await list.getByRole('button', { name: /^Remove / }).click();
    await page.getByText('Nobody follows you from another server yet.').waitFor();
    const creates = peer.received.filter((a) => a instanceof Create).length;
    await seedBlog(writer.context, server.url, { title: 'After the goodbye', photo });
    await new Promise((r) => setTimeout(r, 3000));
    expect(peer.received.filter((a) => a instanceof Create).length).toBe(creates);
  });
});
