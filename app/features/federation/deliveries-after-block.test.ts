import { Create, Delete, Follow, Undo } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { createBlog, deleteBlog } from '~/features/blogs/blogs.service.server';
import { blockRemote } from './federation.service.server';
import { followRemoteAccount } from './remote-following.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { followFromPeer, type ServedTestApp, useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import { PUBLIC_BLOG } from '#test/public-blog';

/**
 * Deliveries queued before a block (docs/decisions/094): the independent peer is down while a
 * post and a deletion are queued for it, a moderator blocks it (the account, then the server),
 * and the peer comes back. When the queue runs, nothing new reaches it; what takes something
 * back does: the Delete of a post it already had, and the block's own Undo of our reader's follow.
 */
describe.each(TEST_DIALECTS)('deliveries queued before a block (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  /** What the peer received after `from`, by type, with the post a Create or a Delete names. */
  const arrivedSince = (peer: FediPeer, from: number) =>
    peer.received.slice(from).map((a) => (a instanceof Undo ? 'Undo' : a instanceof Delete ? `Delete ${a.objectId?.href}` : a instanceof Create ? `Create ${a.objectId?.href}` : a.constructor.name));
  /** Deliveries for the peer still queued (Fedify's retry of those that met it down). */
  const queuedFor = async (site: ServedTestApp, peer: FediPeer) =>
    (await site.t.deps.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation:message').where('status', '=', 'queued').execute()).filter((j) => String(j.payload).includes(`"inbox":"${peer.origin}/`)).length;

  it('a blocked account gets no post queued before, but the Delete of one it had; a blocked server, no more than the Undo of our follow', async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const { writer, moderator, writerUri } = await writerAndModerator(site);
    const reader = await site.t.createUser({ name: 'Rhea Reader' });
    const asModerator = site.t.context(moderator.user);
    const postId = (id: string) => `${site.origin}/ap/posts/${id}`;
    await followFromPeer(site, peer, writerUri);
    await followRemoteAccount(site.t.context(reader.user), { account: peer.actorUri('author').href });
    const { insertedId: had } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Before the block' } as never);
    await site.t.runJobs();
    expect(peer.received.some((a) => a instanceof Follow)).toBe(true);
    expect(arrivedSince(peer, 0)).toContain(`Create ${postId(had)}`);

    // The peer is down: the post and the deletion meet it once and wait for Fedify's retry.
    peer.down = true;
    const seen = peer.received.length;
    const { insertedId: queued } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Queued before the block' } as never);
    await deleteBlog(site.t.context(writer.user), had);
    await site.t.runJobs(new Date());
    expect(await queuedFor(site, peer)).toBeGreaterThanOrEqual(2);

    // Its follower of our writer is blocked, then the peer's server comes back.
    await blockRemote(asModerator, { target: peer.actorUri('reader').href, reason: 'spam' });
    peer.down = false;
    await site.t.runJobs();
    expect(arrivedSince(peer, seen)).toEqual([`Delete ${postId(had)}`]);
    expect(arrivedSince(peer, seen)).not.toContain(`Create ${postId(queued)}`);

    // Down again while a post is queued for the follower an unblocked account of it keeps; then the whole server is blocked.
    await followFromPeer(site, peer, writerUri, 'other');
    peer.down = true;
    const before = peer.received.length;
    const { insertedId: late } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Queued before the server’s block' } as never);
    await site.t.runJobs(new Date());
    expect(await queuedFor(site, peer)).toBeGreaterThanOrEqual(1);
    await blockRemote(asModerator, { target: new URL(peer.origin).host, reason: 'defederated' });
    peer.down = false;
    await site.t.runJobs();
    // The block's own Undo of our reader's follow arrives, and nothing else: not the post.
    expect(arrivedSince(peer, before)).toEqual(['Undo']);
    const undo = peer.received.at(-1) as Undo;
    expect(undo.actorId?.href).toBe(`${site.origin}/ap/actors/${reader.user.id}`);
    expect((await undo.getObject()) instanceof Follow).toBe(true);
    expect(arrivedSince(peer, 0)).not.toContain(`Create ${postId(late)}`);
    expect(await queuedFor(site, peer)).toBe(0);
  });
});
