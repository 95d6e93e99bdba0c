import { Announce, Like, PUBLIC_COLLECTION, Undo } from '@fedify/vocab';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { blockRemote, unblockRemote } from './federation.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

describe.each(TEST_DIALECTS)('likes and boosts from the fediverse (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);
  let site: ServedTestApp;
  let peer: FediPeer;
  let writer: TestUser;
  let moderator: TestUser;
  let writerUri: URL;
  const peerCtx = () => peer.federation.createContext(new URL(peer.origin), undefined);
  const inbox = () => ({ id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) });

  beforeAll(async () => {
    site = pair.site();
    peer = pair.peer();
    ({ writer, moderator, writerUri } = await writerAndModerator(site));
  });

  const publish = async (title: string, extra: Record<string, unknown> = {}) => {
    const { insertedId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title, ...extra } as never);
    await site.t.runJobs();
    return insertedId;
  };
  const send = async (from: string, activity: Like | Announce | Undo) => {
    await peerCtx().sendActivity({ identifier: from }, inbox(), activity);
    await site.t.runJobs();
  };
  const like = (from: string, n: string, object: URL) => new Like({ id: new URL(`/likes/${from}/${n}`, peer.origin), actor: peer.actorUri(from), object });
  const boost = (from: string, n: string, object: URL) => new Announce({ id: new URL(`/boosts/${from}/${n}`, peer.origin), actor: peer.actorUri(from), object, to: PUBLIC_COLLECTION });
  const answer = async (id: string) => (await (await site.t.request(`/api/blogs/${id}`)).json()) as { likes: number; fediverse?: { likes: number; boosts: number } };
  const revision = async (id: string) => Number((await site.t.deps.database.db.selectFrom('blogs').select('revision').where('id', '=', id).executeTakeFirstOrThrow()).revision);

  it('counts a Like and an Announce of a post apart from its local likes, once each, and an Undo takes one back', async () => {
    const id = await publish('Liked from afar');
    const article = new URL(`/ap/posts/${id}`, site.origin);
    expect((await answer(id)).fediverse).toEqual({ likes: 0, boosts: 0 });

    const before = await revision(id);
    await send('reader', like('reader', '1', article));
    // The same like again, and one of the post's page address by another reader: one each.
    await send('reader', like('reader', '1', article));
    await send('other', like('other', '1', new URL(`/blogs/${id}`, site.origin)));
    await send('reader', boost('reader', '1', article));
    expect(await answer(id)).toMatchObject({ likes: 0, fediverse: { likes: 2, boosts: 1 } });
    // The kept page of the post is stale: its revision moved with each new reaction.
    expect(await revision(id)).toBeGreaterThan(before);

    const kept = await revision(id);
    await send('reader', new Undo({ id: new URL('/likes/reader/1#undo', peer.origin), actor: peer.actorUri('reader'), object: like('reader', '1', article) }));
    // An Undo naming someone else's like takes nothing back.
    await send('reader', new Undo({ id: new URL('/likes/other/1#undo', peer.origin), actor: peer.actorUri('reader'), object: new URL('/likes/other/1', peer.origin) }));
    expect((await answer(id)).fediverse).toEqual({ likes: 1, boosts: 1 });
    expect(await revision(id)).toBeGreaterThan(kept);
    // By its id alone, as Mastodon sends it.
    await send('reader', new Undo({ id: new URL('/boosts/reader/1#undo', peer.origin), actor: peer.actorUri('reader'), object: new URL('/boosts/reader/1', peer.origin) }));
    expect((await answer(id)).fediverse).toEqual({ likes: 1, boosts: 0 });
  });

  it('counts nothing for a post that does not go out, nor for an object that is not ours', async () => {
    const hidden = await publish('Kept to myself', { availability: 'Hidden' });
    await send('reader', like('reader', 'hidden', new URL(`/ap/posts/${hidden}`, site.origin)));
    await send('reader', like('reader', 'elsewhere', new URL('/notes/1', peer.origin)));
    expect(await site.t.deps.database.db.selectFrom('remote_reactions').select('id').where('id', 'in', [`${peer.origin}/likes/reader/hidden`, `${peer.origin}/likes/reader/elsewhere`]).execute()).toEqual([]);
    // Its writer sees her Hidden post, without a count from elsewhere.
    const own = (await (await site.t.request(`/api/blogs/${hidden}`, { headers: { cookie: writer.cookie } })).json()) as Record<string, unknown>;
    expect(own.fediverse).toBeUndefined();
  });

  it("a block removes the account's likes and boosts, and refuses its later ones", async () => {
    const id = await publish('Blocked reactions');
    const article = new URL(`/ap/posts/${id}`, site.origin);
    await send('spammer', like('spammer', '1', article));
    await send('spammer', boost('spammer', '1', article));
    await send('reader', like('reader', 'b', article));
    expect((await answer(id)).fediverse).toEqual({ likes: 2, boosts: 1 });

    const block = await blockRemote(site.t.context(moderator.user), { target: peer.actorUri('spammer').href, reason: 'spam' });
    expect(block.kind).toBe('account');
    expect((await answer(id)).fediverse).toEqual({ likes: 1, boosts: 0 });
    await send('spammer', like('spammer', '2', article));
    expect((await answer(id)).fediverse).toEqual({ likes: 1, boosts: 0 });

    // A whole server blocked: every reaction from there goes.
    await blockRemote(site.t.context(moderator.user), { target: new URL(peer.origin).host, reason: 'spam' });
    expect((await answer(id)).fediverse).toEqual({ likes: 0, boosts: 0 });
    await send('reader', like('reader', 'after', article));
    expect((await answer(id)).fediverse).toEqual({ likes: 0, boosts: 0 });
    const blocks = await site.t.deps.database.db.selectFrom('federation_blocks').select('id').execute();
    for (const b of blocks) await unblockRemote(site.t.context(moderator.user), b.id);
  });
});
