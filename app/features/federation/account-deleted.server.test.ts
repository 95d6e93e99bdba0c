import { Article, Create, Delete, Follow } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { addComment } from '~/features/blogs/comments.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, useServedAppAndPeer } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import { PUBLIC_BLOG } from '#test/public-blog';

const AP = 'application/activity+json';

/** The peer follows a local actor, so what it sends reaches the peer. */
async function peerFollows(site: ServedTestApp, peer: FediPeer, actorUri: URL) {
  const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
  await ctx.sendActivity({ identifier: 'reader' }, { id: actorUri, inboxId: new URL(`${actorUri.href}/inbox`) }, new Follow({ id: new URL(`#follow/${encodeURIComponent(actorUri.href)}`, peer.actorUri('reader')), actor: peer.actorUri('reader'), object: actorUri }));
  await site.t.runJobs();
}

const indexOfDelete = (peer: FediPeer, id: string) => peer.received.findIndex((a) => a instanceof Delete && a.objectId?.href === id);

describe.each(TEST_DIALECTS)('a deleted account leaves the fediverse (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  it('its posts that went out are deleted, then the actor itself, from the job queue; its keys go after and its id answers 410', async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const db = site.t.deps.database.db;
    const other = await site.t.createUser({ name: 'Staying Writer' });
    const leaver = await site.t.createUser({ name: 'Leaving Writer' });
    const otherUri = new URL(`/ap/actors/${other.user.id}`, site.origin);
    const leaverUri = new URL(`/ap/actors/${leaver.user.id}`, site.origin);
    await peerFollows(site, peer, otherUri);
    await peerFollows(site, peer, leaverUri);
    const { insertedId: postId } = await createBlog(site.t.context(leaver.user), { ...PUBLIC_BLOG, title: 'A post that leaves' } as never);
    const { insertedId: hiddenId } = await createBlog(site.t.context(leaver.user), { ...PUBLIC_BLOG, title: 'Never out', availability: 'Hidden' } as never);
    const { insertedId: othersPostId } = await createBlog(site.t.context(other.user), { ...PUBLIC_BLOG, title: 'Somebody else’s' } as never);
    await addComment(site.t.context(leaver.user), othersPostId, { commentText: 'A reply that leaves too' });
    await site.t.runJobs();
    const postUri = `${site.origin}/ap/posts/${postId}`;
    const [comment] = await db.selectFrom('comments').select('id').where('user_id', '=', leaver.user.id).execute();
    const commentUri = `${site.origin}/ap/comments/${comment!.id}`;
    const created = await Promise.all(peer.received.filter((a) => a instanceof Create).map((c) => c.getObject()));
    expect(created.filter((o) => o instanceof Article).map((o) => o!.id?.href)).toContain(postUri);
    expect(created.map((o) => o?.id?.href)).not.toContain(`${site.origin}/ap/posts/${hiddenId}`);
    expect((await fetch(leaverUri, { headers: { accept: AP } })).status).toBe(200);

    const gone = await site.t.request('/api/auth/delete-user', { method: 'POST', json: { password: leaver.password }, headers: { cookie: leaver.cookie } });
    expect(gone.status).toBe(200);
    // Nothing is sent while the request waits, and the keys stay for the queued Deletes.
    expect([indexOfDelete(peer, postUri), indexOfDelete(peer, leaverUri.href)]).toEqual([-1, -1]);
    expect(await db.selectFrom('actor_keys').select('algorithm').where('owner', '=', leaver.user.id).execute()).toHaveLength(2);

    // The reply's withdrawal is late (a retry, a busy queue): the actor's Delete waits for it, keys kept.
    const late = new Date(Date.now() + 3_600_000).toISOString();
    await db.updateTable('jobs').set({ run_at: late }).where('status', '=', 'queued').where('payload', 'like', '%"name":"comment.withdrawn"%').execute();
    await site.t.runJobs(new Date());
    expect(indexOfDelete(peer, leaverUri.href)).toBe(-1);
    expect(await db.selectFrom('actor_keys').select('algorithm').where('owner', '=', leaver.user.id).execute()).toHaveLength(2);

    await site.t.runJobs();
    // It may have run beside the reply's job and waited again: its retry is due a little later.
    await site.t.runJobs(new Date('9999-12-31T01:00:00Z'));
    // The post, the reply and the actor: the peer verified each with the key it knew (deliveries
    // run side by side, so they may arrive in any order).
    const [post, reply, actor] = [indexOfDelete(peer, postUri), indexOfDelete(peer, commentUri), indexOfDelete(peer, leaverUri.href)];
    expect([post, reply, actor].map((i) => i >= 0)).toEqual([true, true, true]);
    expect(indexOfDelete(peer, `${site.origin}/ap/posts/${hiddenId}`)).toBe(-1);
    const removeActor = peer.received[actor] as Delete;
    expect(removeActor.actorId?.href).toBe(leaverUri.href);
    expect(peer.received.filter((a) => a instanceof Delete && a.objectId?.href === leaverUri.href)).toHaveLength(1);

    // The keys and followers are dropped; the id answers 410 Gone, and asking does not make keys again.
    expect(await db.selectFrom('actor_keys').select('algorithm').where('owner', '=', leaver.user.id).execute()).toEqual([]);
    expect(await db.selectFrom('remote_followers').select('id').where('local_actor', '=', leaver.user.id).execute()).toEqual([]);
    const answer = await fetch(leaverUri, { headers: { accept: AP } });
    expect(answer.status).toBe(410);
    expect(((await answer.json()) as { type?: string }).type).toBe('Tombstone');
    expect(await db.selectFrom('actor_keys').select('algorithm').where('owner', '=', leaver.user.id).execute()).toEqual([]);
    // A browser there finds no author page: the site's 404.
    expect((await fetch(leaverUri, { headers: { accept: 'text/html' }, redirect: 'manual' })).status).toBe(404);
    expect((await fetch(postUri, { headers: { accept: AP } })).status).toBe(404);
    // An id that never was an account is still only unknown; the staying writer keeps her followers.
    expect((await fetch(new URL('/ap/actors/never-was', site.origin), { headers: { accept: AP } })).status).toBe(404);
    expect(await db.selectFrom('actor_keys').select('algorithm').where('owner', '=', 'never-was').execute()).toEqual([]);
    expect(await db.selectFrom('remote_followers').select('id').where('local_actor', '=', other.user.id).execute()).toHaveLength(1);

    // An account the fediverse never saw (no keys) leaves no mark: its id is merely unknown.
    const unseen = await site.t.createUser({ name: 'Never Federated' });
    expect((await site.t.request('/api/auth/delete-user', { method: 'POST', json: { password: unseen.password }, headers: { cookie: unseen.cookie } })).status).toBe(200);
    await site.t.runJobs();
    expect((await fetch(new URL(`/ap/actors/${unseen.user.id}`, site.origin), { headers: { accept: AP } })).status).toBe(404);
  });
});
