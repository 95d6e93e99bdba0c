import { signRequest } from '@fedify/fedify';
import { Article, Create, Delete, Follow, isActor, Note, type Object as ApObject, Person, PUBLIC_COLLECTION, Tombstone, Update, Undo } from '@fedify/vocab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { addComment, deleteComment, editComment, replyToComment, setCommentHidden } from '~/features/blogs/comments.service.server';
import { listNotifications } from '~/features/notifications/notifications.service.server';
import { emit } from '~/kernel/events.server';
import { blockRemote, receiveRemoteReply, unblockRemote, listRemoteBlocks } from './federation.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import { type FediPeer, startFediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

const AP = 'application/activity+json';

describe.each(TEST_DIALECTS)('federation with an independent peer (%s)', (dialect) => {
  let site: ServedTestApp;
  let peer: FediPeer;
  let writer: TestUser;
  let writerUri: URL;
  const peerCtx = () => peer.federation.createContext(new URL(peer.origin), undefined);

  beforeAll(async () => {
    site = await serveTestApp(dialect, { SITE_NAME: 'Sunset Diaries' });
    peer = await startFediPeer();
    writer = await site.t.createUser({ name: 'Ada Lovelace' });
    writerUri = new URL(`/ap/actors/${writer.user.id}`, site.origin);
  });
  afterAll(async () => {
    await peer?.close();
    await site?.close();
  });

  const received = <T>(cls: new (...args: any[]) => T) => peer.received.filter((a): a is any => a instanceof cls) as T[];
  const publish = async (title: string, extra: Record<string, unknown> = {}) => {
    const { insertedId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title, ...extra } as never);
    await site.t.runJobs();
    return insertedId;
  };

  it('finds the writer by WebFinger, host-meta and NodeInfo, and serves a Person a peer can read', async () => {
    const host = new URL(site.origin).host;
    const finger = await fetch(`${site.origin}/.well-known/webfinger?resource=${encodeURIComponent(`acct:ada_lovelace@${host}`)}`);
    expect(finger.status).toBe(200);
    const jrd = (await finger.json()) as { subject: string; links: { rel: string; href?: string; type?: string }[] };
    expect(jrd.links.find((l) => l.rel === 'self')?.href).toBe(writerUri.href);
    // Their profile address names them too.
    const byProfile = await fetch(`${site.origin}/.well-known/webfinger?resource=${encodeURIComponent(`${site.origin}/@ada_lovelace`)}`);
    expect(((await byProfile.json()) as typeof jrd).links.find((l) => l.rel === 'self')?.href).toBe(writerUri.href);
    expect((await fetch(`${site.origin}/.well-known/webfinger?resource=acct:nobody@${host}`)).status).toBe(404);

    const hostMeta = await fetch(`${site.origin}/.well-known/host-meta`);
    expect(await hostMeta.text()).toContain(`${site.origin}/.well-known/webfinger?resource={uri}`);

    const links = (await (await fetch(`${site.origin}/.well-known/nodeinfo`)).json()) as { links: { href: string }[] };
    const nodeinfo = (await (await fetch(links.links[0]!.href)).json()) as { version: string; protocols: string[]; software: { name: string } };
    expect(nodeinfo).toMatchObject({ version: '2.1', protocols: ['activitypub'], software: { name: 'afterglow' } });

    const actor = await peerCtx().lookupObject(writerUri);
    expect(actor).toBeInstanceOf(Person);
    const person = actor as Person;
    expect(person.preferredUsername).toBe('ada_lovelace');
    expect(person.name).toBe('Ada Lovelace');
    expect(person.url?.toString()).toBe(`${site.origin}/authors/${writer.user.id}`);
    expect(person.inboxId?.href).toBe(`${writerUri.href}/inbox`);
    expect(person.endpoints?.sharedInbox?.href).toBe(`${site.origin}/ap/inbox`);
    expect(person.followersId?.href).toBe(`${writerUri.href}/followers`);
    const key = await person.getPublicKey();
    expect(key?.ownerId?.href).toBe(writerUri.href);
    const multikeys = [];
    for await (const k of person.getAssertionMethods()) multikeys.push(k);
    expect(multikeys.length).toBe(2);

    // The site itself is an actor too, under its name as a handle.
    const siteFinger = await fetch(`${site.origin}/.well-known/webfinger?resource=acct:sunset_diaries@${host}`);
    expect(siteFinger.status).toBe(200);
    const siteActor = await peerCtx().lookupObject(new URL('/ap/actors/site', site.origin));
    expect(isActor(siteActor)).toBe(true);
    expect(siteActor?.constructor.name).toBe('Service');
  });

  it('accepts a Follow at once, lists the follower, and delivers a post as a long-form Article', async () => {
    const ctx = peerCtx();
    const follow = new Follow({ id: new URL('#follow/1', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri });
    await ctx.sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, follow);
    await site.t.runJobs();
    expect(received(await import('@fedify/vocab').then((m) => m.Accept))).toHaveLength(1);
    const followers = (await (await fetch(`${writerUri.href}/followers`, { headers: { accept: AP } })).json()) as { totalItems: number };
    expect(followers.totalItems).toBe(1);

    const id = await publish('Evening tide', { category: 'Travelling & Photography', tags: ['night-sky', 'Harbour'], long_description: 'A **bold** walk by [the sea](/blogs/elsewhere).\n\n<script>alert(1)</script>' });
    const creates = received(Create);
    expect(creates).toHaveLength(1);
    const article = (await creates[0]!.getObject()) as ApObject;
    expect(article).toBeInstanceOf(Article);
    expect(article.id?.href).toBe(`${site.origin}/ap/posts/${id}`);
    expect(article.name?.toString()).toBe('Evening tide');
    expect(article.summary?.toString()).toBe('<p>Short.</p>');
    const content = article.content?.toString() ?? '';
    expect(content).toContain('<strong>bold</strong>');
    expect(content).toContain(`href="${site.origin}/blogs/elsewhere"`);
    expect(content).not.toContain('<script');
    const source = await (article as Article).source;
    expect(source?.content).toContain('A **bold** walk');
    expect(source?.mediaType).toBe('text/markdown');
    const tags = [];
    for await (const tag of article.getTags()) tags.push(tag);
    expect(tags.map((t) => t.name?.toString())).toEqual(['#TravellingPhotography', '#nightsky', '#Harbour']);
    expect(article.url?.toString()).toBe(`${site.origin}/blogs/${id}/evening-tide`);
    const image = await article.getImage();
    expect(image?.url?.toString()).toBe(`${site.origin}${PUBLIC_BLOG.photo}`);
    expect(article.attributionId?.href).toBe(writerUri.href);

    // The outbox lists it; the post answers at its id.
    const fetched = await ctx.lookupObject(new URL(`/ap/posts/${id}`, site.origin));
    expect(fetched).toBeInstanceOf(Article);
    const outbox = (await (await fetch(`${writerUri.href}/outbox`, { headers: { accept: AP } })).json()) as { totalItems: number };
    expect(outbox.totalItems).toBe(1);

    // An edit is an Update; hiding it is a Delete.
    await updateBlog(site.t.context(writer.user), id, { ...PUBLIC_BLOG, title: 'Evening tide, again', category: 'Travelling & Photography' } as never);
    await site.t.runJobs();
    const updates = received(Update);
    expect(updates).toHaveLength(1);
    expect(((await updates[0]!.getObject()) as ApObject).name?.toString()).toBe('Evening tide, again');
    await updateBlog(site.t.context(writer.user), id, { ...PUBLIC_BLOG, title: 'Evening tide, again', category: 'Travelling & Photography', availability: 'Hidden' } as never);
    await site.t.runJobs();
    const deletes = received(Delete);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.objectId?.href).toBe(`${site.origin}/ap/posts/${id}`);
    expect((await fetch(`${site.origin}/ap/posts/${id}`, { headers: { accept: AP } })).status).toBe(404);
  });

  describe('nothing leaves that must not', () => {
    const before = () => ({ creates: received(Create).length, updates: received(Update).length });
    const expectNothingLeft = async (id: string, counts: { creates: number; updates: number }) => {
      // Whatever is said about the post, nothing of it goes out.
      await emit(site.t.context(null), 'blog.published', { blogId: id, ownerId: writer.user.id });
      await emit(site.t.context(null), 'blog.updated', { blogId: id, ownerId: writer.user.id });
      await site.t.runJobs();
      expect(before()).toEqual(counts);
      expect((await fetch(`${site.origin}/ap/posts/${id}`, { headers: { accept: AP } })).status).toBe(404);
    };

    it('a Hidden post', async () => {
      const counts = before();
      const id = await publish('Kept to myself', { availability: 'Hidden' });
      await expectNothingLeft(id, counts);
    });

    it('a post held by the spam hold', async () => {
      const counts = before();
      const id = await publish('Held back');
      // It went out as a normal post; then the hold (as a later hold of the account would) keeps it in.
      const sent = before();
      await site.t.deps.database.db.updateTable('blogs').set({ held_until: '9999-12-31T23:59:59.999Z' }).where('id', '=', id).execute();
      await expectNothingLeft(id, sent);
      expect(sent.creates).toBe(counts.creates + 1);
    });

    it('a post a moderator removed', async () => {
      const counts = before();
      const id = await publish('Removed later', { availability: 'Hidden' });
      await site.t.deps.database.db.updateTable('blogs').set({ removed_at: new Date().toISOString(), removed_reason: 'spam', availability: 'Public' }).where('id', '=', id).execute();
      await expectNothingLeft(id, counts);
    });

    it('a suspended account: its posts are deleted where they went, and nothing more leaves', async () => {
      const id = await publish('Before the suspension');
      const deletes = received(Delete).length;
      await site.t.deps.database.db
        .insertInto('user_restrictions')
        .values({ user_id: writer.user.id, kind: 'suspended', until: null, reason: 'spam', created_by: null, created_at: new Date().toISOString() })
        .execute();
      await emit(site.t.context(null), 'account.suspended', { userId: writer.user.id, until: null, reason: 'spam' });
      await site.t.runJobs();
      expect(received(Delete).map((d) => d.objectId?.href)).toContain(`${site.origin}/ap/posts/${id}`);
      expect(received(Delete).length).toBeGreaterThan(deletes);
      await expectNothingLeft(id, before());
      await site.t.deps.database.db.deleteFrom('user_restrictions').where('user_id', '=', writer.user.id).execute();
    });
  });

  describe('replies from the fediverse', () => {
    let postId: string;
    let postUri: URL;
    const comments = () => site.t.deps.database.db.selectFrom('comments').leftJoin('remote_actors', 'remote_actors.id', 'comments.remote_actor_id').select(['comments.id', 'comments.parent_id', 'comments.depth', 'comments.comment_text', 'comments.pending_since', 'comments.deleted_at', 'remote_actors.handle', 'remote_actors.name']).where('blog_id', '=', postId).orderBy('commented_at').execute();
    const inbox = () => ({ id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) });
    const note = (n: string, replyTo: URL, content: string) =>
      new Note({ id: new URL(`/notes/${n}`, peer.origin), attribution: peer.actorUri('reader'), replyTarget: replyTo, content, to: PUBLIC_COLLECTION });
    const send = async (activity: Create | Update | Delete) => {
      await peerCtx().sendActivity({ identifier: 'reader' }, inbox(), activity);
      await site.t.runJobs();
    };

    beforeAll(async () => {
      postId = await publish('Open to replies');
      postUri = new URL(`/ap/posts/${postId}`, site.origin);
    });

    it('a Note in reply to a post becomes a comment, a reply to it threads under it, edits and deletions follow', async () => {
      const first = note('1', postUri, '<p>Lovely <a href="https://example.org/@ada">@ada</a> &amp; <b>bright</b><script>x()</script></p><p>Second line</p>');
      await send(new Create({ id: new URL('/notes/1#create', peer.origin), actor: peer.actorUri('reader'), object: first, to: PUBLIC_COLLECTION }));
      let rows = await comments();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ parent_id: null, depth: 0, comment_text: 'Lovely @ada & bright\n\nSecond line', handle: `@reader@${new URL(peer.origin).host}`, name: 'Peer reader' });

      // A reply to that reply hangs under it; a reply to a post we never federated is dropped.
      await send(new Create({ id: new URL('/notes/2#create', peer.origin), actor: peer.actorUri('reader'), object: note('2', first.id!, '<p>And more</p>'), to: PUBLIC_COLLECTION }));
      await send(new Create({ id: new URL('/notes/3#create', peer.origin), actor: peer.actorUri('reader'), object: note('3', new URL('/ap/posts/nothing', site.origin), '<p>Lost</p>'), to: PUBLIC_COLLECTION }));
      rows = await comments();
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatchObject({ parent_id: rows[0]!.id, depth: 1, comment_text: 'And more' });

      await send(new Update({ id: new URL('/notes/2#update', peer.origin), actor: peer.actorUri('reader'), object: note('2', first.id!, '<p>And more, edited</p>'), to: PUBLIC_COLLECTION }));
      expect((await comments())[1]!.comment_text).toBe('And more, edited');
      await send(new Delete({ id: new URL('/notes/2#delete', peer.origin), actor: peer.actorUri('reader'), object: new Tombstone({ id: new URL('/notes/2', peer.origin) }), to: PUBLIC_COLLECTION }));
      expect(await comments()).toHaveLength(1);
    });

    it('a local comment goes out as a reply to the post, a reply to a remote reply answers it, and a deletion follows', async () => {
      const local = await site.t.createUser({ name: 'Local Reader' });
      const noteOf = async (id: string) =>
        (await Promise.all(received(Create).map((c) => c.getObject()))).find((o): o is Note => o instanceof Note && o.id?.href === `${site.origin}/ap/comments/${id}`);

      await addComment(site.t.context(local.user), postId, { commentText: 'From here & now' });
      await site.t.runJobs();
      const [top] = (await comments()).filter((c) => c.handle === null && c.comment_text === 'From here & now');
      const sent = await noteOf(top!.id);
      expect(sent).toBeInstanceOf(Note);
      expect(sent!.replyTargetId?.href).toBe(postUri.href);
      expect(sent!.attributionId?.href).toBe(`${site.origin}/ap/actors/${local.user.id}`);
      expect(sent!.content?.toString()).toBe('<p>From here &#38; now</p>');
      // Its id answers while every reader may see it.
      expect(await peerCtx().lookupObject(sent!.id!)).toBeInstanceOf(Note);

      // The writer answers the peer's reply: the Note answers the peer's own id and mentions its author.
      const remote = (await comments()).find((c) => c.handle !== null && c.deleted_at === null)!;
      const answer = await replyToComment(site.t.context(writer.user), remote.id, { commentText: 'Thank you' });
      // And a reply under our own comment answers its Note.
      const under = await replyToComment(site.t.context(writer.user), top!.id, { commentText: 'Welcome' });
      await site.t.runJobs();
      const answerNote = await noteOf(answer.insertedId);
      expect(answerNote!.replyTargetId?.href).toBe(`${peer.origin}/notes/1`);
      expect(answerNote!.ccIds.map((u) => u.href)).toContain(peer.actorUri('reader').href);
      expect((await noteOf(under.insertedId))!.replyTargetId?.href).toBe(sent!.id!.href);
      // An edit goes out as an Update of the Note.
      await editComment(site.t.context(writer.user), answer.insertedId, { commentText: 'Thank you, truly' });
      await site.t.runJobs();
      const edited = (await Promise.all(received(Update).map((u) => u.getObject()))).find((o): o is Note => o instanceof Note && o.id?.href === answerNote!.id!.href);
      expect(edited?.content?.toString()).toBe('<p>Thank you, truly</p>');

      // A remote reply to our comment's Note threads under it.
      await send(new Create({ id: new URL('/notes/4#create', peer.origin), actor: peer.actorUri('reader'), object: note('4', sent!.id!, '<p>Hello back</p>'), to: PUBLIC_COLLECTION }));
      expect((await comments()).find((c) => c.comment_text === 'Hello back')?.parent_id).toBe(top!.id);
      // Its author hears of the reply, and the writer of the comment on her post, named as the peer names its reader.
      const notices = async (user: TestUser) => (await listNotifications(site.t.context(user.user), { page: 1, limit: 50 })).items;
      expect((await notices(local)).find((n) => n.kind === 'reply')).toMatchObject({ text: expect.stringContaining('Peer reader'), actorName: 'Peer reader' });
      expect((await notices(writer)).filter((n) => n.kind === 'comment').map((n) => n.actorName)).toContain('Peer reader');

      // Hidden by the writer, or deleted: a Delete goes where the Create went, and its id answers no more.
      const deletes = received(Delete).length;
      await setCommentHidden(site.t.context(writer.user), under.insertedId, true);
      await deleteComment(site.t.context(local.user), top!.id);
      await site.t.runJobs();
      expect(received(Delete).slice(deletes).map((d) => d.objectId?.href).sort()).toEqual([`${site.origin}/ap/comments/${under.insertedId}`, sent!.id!.href].sort());
      expect((await fetch(sent!.id!, { headers: { accept: AP } })).status).toBe(404);

      // Nothing leaves of a comment the writer hid, nor of one under a post held back before its delivery ran.
      const creates = received(Create).length;
      await emit(site.t.context(null), 'comment.posted', { commentId: under.insertedId, blogId: postId, blogOwnerId: writer.user.id, authorId: writer.user.id });
      const later = await publish('Held after this comment');
      await addComment(site.t.context(local.user), later, { commentText: 'Too soon' });
      await site.t.deps.database.db.updateTable('blogs').set({ held_until: '9999-12-31T23:59:59.999Z' }).where('id', '=', later).execute();
      await site.t.runJobs();
      expect(received(Create)).toHaveLength(creates + 1);
    });

    it('a new remote account with too many links waits for a moderator, as a new local account would', async () => {
      const held = { ...site.t.context(null), spamHold: { days: 3, maxLinks: 2 } };
      const author = { uri: new URL('/users/linky', peer.origin).href, handle: '@linky@peer', name: 'Linky', avatarUrl: null, profileUrl: null };
      const links = '<p>https://a.example https://b.example https://c.example</p>';
      const result = await receiveRemoteReply(held, site.origin, { uri: `${peer.origin}/notes/links`, inReplyTo: postUri.href, html: links, author });
      expect(result?.pending).toBe(true);
      const calm = await receiveRemoteReply(held, site.origin, { uri: `${peer.origin}/notes/calm`, inReplyTo: postUri.href, html: '<p>No links</p>', author });
      expect(calm?.pending).toBe(false);
    });
  });

  describe('refuses forgeries', () => {
    const inbox = () => new URL(`${writerUri.href}/inbox`);
    const followBody = (n: string) =>
      JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${peer.actorUri('forger').href}#f/${n}`, type: 'Follow', actor: peer.actorUri('forger').href, object: writerUri.href });
    const signed = (body: string) =>
      signRequest(new Request(inbox(), { method: 'POST', headers: { 'content-type': AP }, body }), peer.keys.privateKey, new URL(`${peer.actorUri('forger').href}#main-key`));

    it('an unsigned activity, a tampered one, and an oversized one', async () => {
      expect((await fetch(inbox(), { method: 'POST', headers: { 'content-type': AP }, body: followBody('unsigned') })).status).toBe(401);
      const request = await signed(followBody('tampered'));
      const tampered = await fetch(new Request(request, { body: followBody('tampered-other') }));
      expect(tampered.status).toBe(401);
      const huge = await fetch(inbox(), { method: 'POST', headers: { 'content-type': AP }, body: 'x'.repeat(300 * 1024) });
      expect(huge.status).toBe(413);
    });

    it('an activity signed by one actor on behalf of another (wrong origin)', async () => {
      const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: 'http://127.0.0.2:1/x#follow', type: 'Follow', actor: 'http://127.0.0.2:1/users/mallory', object: writerUri.href });
      const response = await fetch(await signed(body));
      expect(response.status).toBe(401);
    });

    it('a replayed activity is processed once', async () => {
      const followers = async () => ((await (await fetch(`${writerUri.href}/followers`, { headers: { accept: AP } })).json()) as { totalItems: number }).totalItems;
      const first = await signed(followBody('replay'));
      const again = first.clone();
      expect((await fetch(first)).status).toBe(202);
      await site.t.runJobs();
      const count = await followers();
      const accepts = peer.received.length;
      // Undo the follow, then replay the original Follow: it is not taken again.
      const ctx = peerCtx();
      await ctx.sendActivity({ identifier: 'forger' }, { id: writerUri, inboxId: inbox() }, new Undo({ id: new URL('#undo/replay', peer.actorUri('forger')), actor: peer.actorUri('forger'), object: new Follow({ id: new URL(`${peer.actorUri('forger').href}#f/replay`), actor: peer.actorUri('forger'), object: writerUri }) }));
      await site.t.runJobs();
      expect(await followers()).toBe(count - 1);
      await fetch(again);
      await site.t.runJobs();
      expect(await followers()).toBe(count - 1);
      expect(peer.received.length).toBe(accepts);
    });
  });

  it("a moderator blocks the peer's server: its replies are removed, later ones and its follows refused, nothing more delivered", async () => {
    const moderator = await site.t.createUser({ name: 'Mo Derator' });
    await site.t.deps.database.db.insertInto('user_roles').values({ user_id: moderator.user.id, role: 'moderator', granted_by: null, granted_at: new Date().toISOString() }).execute();
    const writerCtx = site.t.context(writer.user);
    await expect(blockRemote(writerCtx, { target: new URL(peer.origin).host, reason: 'spam' })).rejects.toMatchObject({ code: 'forbidden' });

    const id = await publish('Blocked later');
    const ctx = peerCtx();
    const inbox = { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) };
    await ctx.sendActivity({ identifier: 'reader' }, inbox, new Follow({ id: new URL('#follow/again', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    const reply = (n: string) =>
      new Create({ id: new URL(`/notes/b${n}#create`, peer.origin), actor: peer.actorUri('reader'), to: PUBLIC_COLLECTION, object: new Note({ id: new URL(`/notes/b${n}`, peer.origin), attribution: peer.actorUri('reader'), replyTarget: new URL(`/ap/posts/${id}`, site.origin), content: `<p>Reply ${n}</p>`, to: PUBLIC_COLLECTION }) });
    await ctx.sendActivity({ identifier: 'reader' }, inbox, reply('1'));
    await site.t.runJobs();
    const shown = () => site.t.deps.database.db.selectFrom('comments').select(['comment_text', 'removed_at']).where('blog_id', '=', id).orderBy('commented_at').execute();
    expect((await shown()).map((c) => [c.comment_text, c.removed_at === null])).toEqual([['Reply 1', true]]);

    const modCtx = site.t.context(moderator.user);
    await expect(blockRemote(modCtx, { target: '@nobody@nowhere.example', reason: 'spam' })).rejects.toMatchObject({ code: 'not_found' });
    const fromPeer = async () => Number((await site.t.deps.database.db.selectFrom('comments').innerJoin('remote_actors', 'remote_actors.id', 'comments.remote_actor_id').select((eb) => eb.fn.countAll<number>().as('n')).where('remote_actors.uri', 'like', `${peer.origin}/%`).where('comments.removed_at', 'is', null).executeTakeFirstOrThrow()).n);
    const shownBefore = await fromPeer();
    const blocked = await blockRemote(modCtx, { target: new URL(peer.origin).host, reason: 'spam' });
    // Every reply from that server is removed, this post's and the earlier ones.
    expect(blocked).toMatchObject({ kind: 'instance', removedComments: shownBefore });
    expect(await fromPeer()).toBe(0);
    expect((await shown())[0]!.removed_at).not.toBeNull();
    const followers = (await (await fetch(`${writerUri.href}/followers`, { headers: { accept: AP } })).json()) as { totalItems: number };
    expect(followers.totalItems).toBe(0);

    await ctx.sendActivity({ identifier: 'reader' }, inbox, reply('2'));
    await ctx.sendActivity({ identifier: 'reader' }, inbox, new Follow({ id: new URL('#follow/blocked', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    await site.t.runJobs();
    expect(await shown()).toHaveLength(1);
    const creates = received(Create).length;
    await publish('Nobody there now');
    expect(received(Create)).toHaveLength(creates);

    for (const b of await listRemoteBlocks(modCtx)) await unblockRemote(modCtx, b.id);
  });
});

describe('federation without private addresses (%s)', () => {
  it('refuses an activity whose actor lives on a private address', async () => {
    const site = await serveTestApp('sqlite', { FEDERATION_ALLOW_PRIVATE: 'off' });
    const peer = await startFediPeer();
    try {
      const writer = await site.t.createUser({ name: 'Grace' });
      const writerUri = new URL(`/ap/actors/${writer.user.id}`, site.origin);
      const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `${peer.actorUri('x').href}#f`, type: 'Follow', actor: peer.actorUri('x').href, object: writerUri.href });
      const request = await signRequest(new Request(`${writerUri.href}/inbox`, { method: 'POST', headers: { 'content-type': AP }, body }), peer.keys.privateKey, new URL(`${peer.actorUri('x').href}#main-key`));
      expect((await fetch(request)).status).toBe(401);
      await site.t.runJobs();
      expect(peer.received).toHaveLength(0);
    } finally {
      await peer.close();
      await site.close();
    }
  });
});
