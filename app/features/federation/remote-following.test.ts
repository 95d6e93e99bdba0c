import { Article, Create, Delete, Note, PUBLIC_COLLECTION, Update } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, deleteBlog, getBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { blockRemote, listRemoteBlocks, unblockRemote } from './federation.service.server';
import { followFromServerUrl, followRemoteAccount, listRemoteFollowing, listRemoteFollowingPosts, replyToRemotePost, unfollowRemoteAccount } from './remote-following.service.server';
import { pruneRemotePosts } from './remote-posts.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import { type FediPeer, startFediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

describe.each(TEST_DIALECTS)('following accounts on another server, between two sites (%s)', (dialect) => {
  let a: ServedTestApp;
  let b: ServedTestApp;
  let peer: FediPeer;
  let writer: TestUser;
  let reader: TestUser;
  let hostA: string;
  const readerCtx = () => b.t.context(reader.user);
  // Each site delivers from its own queue: a few rounds let a Follow, its Accept and a post cross.
  const settle = async () => {
    for (let i = 0; i < 4; i++) {
      await a.t.runJobs();
      await b.t.runJobs();
    }
  };
  const publish = async (title: string, extra: Record<string, unknown> = {}) => {
    const { insertedId } = await createBlog(a.t.context(writer.user), { ...PUBLIC_BLOG, title, ...extra } as never);
    await settle();
    return insertedId;
  };
  const feed = () => listRemoteFollowingPosts(readerCtx());

  beforeAll(async () => {
    a = await serveTestApp(dialect, { SITE_NAME: 'Dusk' });
    b = await serveTestApp(dialect, { SITE_NAME: 'Dawn' });
    peer = await startFediPeer();
    writer = await a.t.createUser({ name: 'Wren Writer' });
    reader = await b.t.createUser({ name: 'Rhea Reader' });
    hostA = new URL(a.origin).host;
  });
  afterAll(async () => {
    await peer?.close();
    await b?.close();
    await a?.close();
  });

  it('follows by handle: pending until the Accept, then accepted; the writer has a follower there', async () => {
    const { follow, created } = await followRemoteAccount(readerCtx(), { account: `@wren_writer@${hostA}` });
    expect(created).toBe(true);
    expect(follow).toMatchObject({ handle: `@wren_writer@${hostA}`, name: 'Wren Writer', state: 'pending', actorUri: `${a.origin}/ap/actors/${writer.user.id}` });
    await settle();
    expect((await listRemoteFollowing(readerCtx()))[0]?.state).toBe('accepted');
    const followers = await a.t.deps.database.db.selectFrom('remote_followers').select(['actor_uri', 'handle']).where('local_actor', '=', writer.user.id).execute();
    expect(followers).toEqual([{ actor_uri: `${b.origin}/ap/actors/${reader.user.id}`, handle: `@rhea_reader@${new URL(b.origin).host}` }]);
    // Following again changes nothing; a profile address names the same account.
    expect((await followRemoteAccount(readerCtx(), { account: `${a.origin}/ap/actors/${writer.user.id}` })).created).toBe(false);
  });

  it('refuses what cannot be followed: an account here, nobody, a blocked server', async () => {
    await expect(followRemoteAccount(readerCtx(), { account: `@rhea_reader@${new URL(b.origin).host}` })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(followRemoteAccount(readerCtx(), { account: `@nobody@${hostA}` })).rejects.toMatchObject({ code: 'not_found' });
    const moderator = await b.t.createUser({ name: 'Mo Derator' });
    await b.t.deps.database.db.insertInto('user_roles').values({ user_id: moderator.user.id, role: 'moderator', granted_by: null, granted_at: new Date().toISOString() }).execute();
    await blockRemote(b.t.context(moderator.user), { target: new URL(peer.origin).host, reason: 'spam' });
    await expect(followRemoteAccount(readerCtx(), { account: peer.actorUri('someone').href })).rejects.toMatchObject({ code: 'forbidden' });
    for (const block of await listRemoteBlocks(b.t.context(moderator.user))) await unblockRemote(b.t.context(moderator.user), block.id);
    expect(await b.t.deps.database.db.selectFrom('remote_follows').select('id').execute()).toHaveLength(1);
  });

  it('keeps a followed writer’s public posts, sanitised; edits and deletions follow', async () => {
    const id = await publish('Low tide', { long_description: 'Mud **gleams**.\n\n<script>alert(1)</script>\n\n![a gull](https://tracker.example/gull.png)' });
    const [post] = await feed();
    expect(post).toMatchObject({ kind: 'Article', title: 'Low tide', summary: 'Short.', author: { handle: `@wren_writer@${hostA}`, name: 'Wren Writer' } });
    expect(post!.url).toBe(`${a.origin}/blogs/${id}/low-tide`);
    expect(post!.html).toContain('<strong>gleams</strong>');
    expect(post!.html).not.toContain('<script');
    expect(post!.html).not.toContain('<img');
    expect(post!.html).toContain('href="https://tracker.example/gull.png"');

    await updateBlog(a.t.context(writer.user), id, { ...PUBLIC_BLOG, title: 'Low tide, later' } as never);
    await settle();
    expect((await feed())[0]?.title).toBe('Low tide, later');
    await deleteBlog(a.t.context(writer.user), id);
    await settle();
    expect(await feed()).toEqual([]);
  });

  it('a reply goes back as a comment under the post there', async () => {
    const id = await publish('High tide');
    const [post] = await feed();
    await replyToRemotePost(readerCtx(), { postId: post!.id, text: 'Lovely\n\nwater <b>here</b>' });
    await settle();
    const shown = await getBlog(a.t.context(null), id);
    const comment = shown.comments?.find((c) => c.commentText.includes('Lovely'));
    expect(comment?.commentText).toBe('Lovely\n\nwater <b>here</b>');
    expect((await feed())[0]?.myReplies.map((r) => r.text)).toEqual(['Lovely\n\nwater <b>here</b>']);
    // Only a post of someone the reader follows can be answered.
    await expect(replyToRemotePost(b.t.context((await b.t.createUser()).user), { postId: post!.id, text: 'Hi' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps nothing from a stranger, and no forged Update or Delete of a kept post', async () => {
    const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
    const inbox = { id: new URL(`/ap/actors/${reader.user.id}`, b.origin), inboxId: new URL('/ap/inbox', b.origin) };
    const note = new Note({ id: new URL('/notes/stranger', peer.origin), attribution: peer.actorUri('stranger'), content: '<p>Buy now</p>', to: PUBLIC_COLLECTION });
    await ctx.sendActivity({ identifier: 'stranger' }, inbox, new Create({ id: new URL('/notes/stranger#create', peer.origin), actor: peer.actorUri('stranger'), object: note, to: PUBLIC_COLLECTION }));
    const [kept] = await feed();
    const forged = new Article({ id: new URL(kept!.url.replace(/\/blogs\/([^/]+)\/.*/, '/ap/posts/$1')), attribution: peer.actorUri('stranger'), name: 'Forged', content: '<p>x</p>', to: PUBLIC_COLLECTION });
    await ctx.sendActivity({ identifier: 'stranger' }, inbox, new Update({ id: new URL('/notes/forged#update', peer.origin), actor: peer.actorUri('stranger'), object: forged }));
    await ctx.sendActivity({ identifier: 'stranger' }, inbox, new Delete({ id: new URL('/notes/forged#delete', peer.origin), actor: peer.actorUri('stranger'), object: forged.id }));
    await settle();
    const after = await feed();
    expect(after.map((p) => p.title)).toEqual([kept!.title]);
    expect(await b.t.deps.database.db.selectFrom('remote_posts').select('uri').where('uri', 'like', `${peer.origin}%`).execute()).toEqual([]);
  });

  it('"Follow from your server" sends a reader to their own server’s follow page, the one its WebFinger names', async () => {
    const hostB = new URL(b.origin).host;
    const jrd = (await (await fetch(`${b.origin}/.well-known/webfinger?resource=acct:rhea_reader@${hostB}`)).json()) as { links: { rel: string; template?: string }[] };
    expect(jrd.links.find((l) => l.rel === 'http://ostatus.org/schema/1.0/subscribe')?.template).toBe(`${b.origin}/authorize_interaction?uri={uri}`);
    const expected = `${b.origin}/authorize_interaction?uri=${encodeURIComponent(`acct:wren_writer@${hostA}`)}`;
    const visitor = a.t.context(null);
    expect(await followFromServerUrl(visitor, { server: `@rhea_reader@${hostB}`, account: `@wren_writer@${hostA}` })).toBe(expected);
    expect(await followFromServerUrl(visitor, { server: hostB, account: `@wren_writer@${hostA}` })).toBe(expected);
    // A server whose WebFinger names no follow page, or no such person there: nowhere to go.
    await expect(followFromServerUrl(visitor, { server: `@someone@${new URL(peer.origin).host}`, account: `@wren_writer@${hostA}` })).rejects.toMatchObject({ code: 'not_found' });
    await expect(followFromServerUrl(visitor, { server: `@nobody@${hostB}`, account: `@wren_writer@${hostA}` })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('keeps the newest posts for a while only, and unfollowing ends the follow there', async () => {
    expect(await pruneRemotePosts(b.t.context(null), new Date())).toBe(0);
    expect(await pruneRemotePosts(b.t.context(null), new Date(Date.now() + 400 * 86_400_000))).toBe(1);
    const [follow] = await listRemoteFollowing(readerCtx());
    expect(await unfollowRemoteAccount(readerCtx(), follow!.id)).toEqual({ deletedCount: 1 });
    await settle();
    expect(await a.t.deps.database.db.selectFrom('remote_followers').select('id').where('local_actor', '=', writer.user.id).execute()).toEqual([]);
    await expect(unfollowRemoteAccount(readerCtx(), follow!.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
