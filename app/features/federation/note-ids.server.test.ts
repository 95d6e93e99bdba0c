import { Create, Delete, Follow, Note } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { createBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { addComment, deleteComment, replyToComment, setCommentHidden } from '~/features/blogs/comments.service.server';
import { suspendUser, unsuspendUser } from '~/features/moderation/moderation.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, useServedAppAndPeer, writerAndModerator } from '#test/fedi-instance';
import type { FediPeer } from '#test/fedi-peer';
import { PUBLIC_BLOG } from '#test/public-blog';

const AP = 'application/activity+json';
const HTML = 'text/html,application/xhtml+xml';

/** The peer follows the writer, so what she and her commenters send reaches it. */
async function peerFollows(site: ServedTestApp, peer: FediPeer, writerUri: URL) {
  const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
  await ctx.sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, new Follow({ id: new URL(`#follow/${encodeURIComponent(writerUri.href)}`, peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
  await site.t.runJobs();
}

const notesReceived = async (peer: FediPeer) =>
  (await Promise.all(peer.received.filter((a) => a instanceof Create).map((c) => c.getObject()))).filter((o): o is Note => o instanceof Note);
const deletesOf = (peer: FediPeer, id: string) => peer.received.filter((a) => a instanceof Delete && a.objectId?.href === id).length;

describe.each(TEST_DIALECTS)("our replies' ids answer (%s)", (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  it('as the Note a peer received, to ActivityPub; a browser goes to the comment under the post; nothing once it may not leave', async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const { writer, moderator, writerUri } = await writerAndModerator(site);
    const reader = await site.t.createUser({ name: 'Local Reader' });
    await peerFollows(site, peer, writerUri);
    const { insertedId: blogId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Answered at its id' } as never);
    await addComment(site.t.context(reader.user), blogId, { commentText: 'First thought' });
    await site.t.runJobs();
    const [comment] = await site.t.deps.database.db.selectFrom('comments').select('id').where('blog_id', '=', blogId).execute();
    const noteId = `${site.origin}/ap/comments/${comment!.id}`;
    const sent = (await notesReceived(peer)).find((n) => n.id?.href === noteId);
    expect(sent?.content?.toString()).toBe('<p>First thought</p>');

    // The peer fetches the id it was given (signed or not, as any server may) and finds the same Note.
    const fetched = await peer.federation.createContext(new URL(peer.origin), undefined).lookupObject(noteId);
    expect(fetched).toBeInstanceOf(Note);
    expect((fetched as Note).content?.toString()).toBe('<p>First thought</p>');
    expect((fetched as Note).attributionId?.href).toBe(`${site.origin}/ap/actors/${reader.user.id}`);
    expect((fetched as Note).replyTargetId?.href).toBe(`${site.origin}/ap/posts/${blogId}`);
    const asJson = await fetch(noteId, { headers: { accept: AP } });
    expect([asJson.status, asJson.headers.get('content-type')]).toEqual([200, expect.stringContaining('application/activity+json')]);

    // A browser at the id is sent to the comment's anchor on the post's page; at the post's id, to the post.
    const browsed = await fetch(noteId, { headers: { accept: HTML }, redirect: 'manual' });
    expect(browsed.status).toBe(302);
    expect(browsed.headers.get('location')).toBe(`/blogs/${blogId}/answered-at-its-id#comment-${comment!.id}`);
    const post = await fetch(`${site.origin}/ap/posts/${blogId}`, { headers: { accept: HTML }, redirect: 'manual' });
    expect([post.status, post.headers.get('location')]).toEqual([302, `/blogs/${blogId}/answered-at-its-id`]);
    const author = await fetch(`${site.origin}/ap/actors/${reader.user.id}`, { headers: { accept: HTML }, redirect: 'manual' });
    expect([author.status, author.headers.get('location')]).toEqual([302, `/authors/${reader.user.id}`]);

    const answers = async () => [(await fetch(noteId, { headers: { accept: AP } })).status, (await fetch(noteId, { headers: { accept: HTML }, redirect: 'manual' })).status];
    // Hidden by the post's writer: gone to both; shown again: back.
    await setCommentHidden(site.t.context(writer.user), comment!.id, true);
    expect(await answers()).toEqual([404, 404]);
    await setCommentHidden(site.t.context(writer.user), comment!.id, false);
    expect(await answers()).toEqual([200, 302]);
    // Its post made Hidden: no comment under it leaves either.
    await updateBlog(site.t.context(writer.user), blogId, { availability: 'Hidden' } as never);
    expect(await answers()).toEqual([404, 404]);
    await updateBlog(site.t.context(writer.user), blogId, { availability: 'Public' } as never);
    expect(await answers()).toEqual([200, 302]);
    // Its author suspended, then back.
    await suspendUser(site.t.context(moderator.user), reader.user.id, { days: null, reason: 'Checking' });
    expect(await answers()).toEqual([404, 404]);
    await unsuspendUser(site.t.context(moderator.user), reader.user.id, { reason: 'Fine' });
    expect(await answers()).toEqual([200, 302]);
    // Deleted: gone for good.
    await deleteComment(site.t.context(reader.user), comment!.id);
    expect(await answers()).toEqual([404, 404]);
    await site.t.runJobs();
  });

  it("a deleted account's comments that went out are deleted where they went, through the job queue; the rest send nothing", async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const writer = await site.t.createUser({ name: 'Staying Writer' });
    const leaver = await site.t.createUser({ name: 'Leaving Reader' });
    const writerUri = new URL(`/ap/actors/${writer.user.id}`, site.origin);
    await peerFollows(site, peer, writerUri);
    const { insertedId: blogId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Comments that leave' } as never);
    const { insertedId: hiddenPostId } = await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: 'Hidden since' } as never);
    await addComment(site.t.context(leaver.user), blogId, { commentText: 'Went out' });
    await addComment(site.t.context(leaver.user), blogId, { commentText: 'Hidden by the writer' });
    await addComment(site.t.context(leaver.user), hiddenPostId, { commentText: 'Under a hidden post' });
    await site.t.runJobs();
    await updateBlog(site.t.context(writer.user), hiddenPostId, { availability: 'Hidden' } as never);
    const ids = Object.fromEntries(
      (await site.t.deps.database.db.selectFrom('comments').select(['id', 'comment_text']).where('user_id', '=', leaver.user.id).execute()).map((r) => [r.comment_text, `${site.origin}/ap/comments/${r.id}`]),
    );
    // A reply by someone else under the leaving account's comment stays, and stays out there.
    const [wentOut] = await site.t.deps.database.db.selectFrom('comments').select('id').where('comment_text', '=', 'Went out').execute();
    await replyToComment(site.t.context(writer.user), wentOut!.id, { commentText: 'The writer answers' });
    await setCommentHidden(site.t.context(writer.user), ids['Hidden by the writer']!.split('/').at(-1)!, true);
    await site.t.runJobs();
    const [answer] = await site.t.deps.database.db.selectFrom('comments').select('id').where('comment_text', '=', 'The writer answers').execute();
    const answerId = `${site.origin}/ap/comments/${answer!.id}`;
    expect((await notesReceived(peer)).map((n) => n.id?.href)).toEqual(expect.arrayContaining([ids['Went out'], ids['Hidden by the writer'], ids['Under a hidden post'], answerId]));
    const deletesBefore = [deletesOf(peer, ids['Went out']!), deletesOf(peer, ids['Hidden by the writer']!), deletesOf(peer, ids['Under a hidden post']!)];
    expect(deletesBefore).toEqual([0, 1, 0]);

    const gone = await site.t.request('/api/auth/delete-user', { method: 'POST', json: { password: leaver.password }, headers: { cookie: leaver.cookie } });
    expect(gone.status).toBe(200);
    // Nothing is sent while the request waits: the Deletes are jobs.
    expect(deletesOf(peer, ids['Went out']!)).toBe(0);
    // One comment.withdrawn per comment still shown (the hidden one's Delete went when it was hidden);
    // the one under a post made Hidden since is the federation's to drop, as for a comment deleted there.
    const queued = await site.t.deps.database.db.selectFrom('jobs').select('payload').where('status', '=', 'queued').execute();
    expect(queued.map((j) => JSON.parse(j.payload) as { name?: string }).filter((p) => p.name === 'comment.withdrawn')).toHaveLength(2);
    await site.t.runJobs();
    expect([deletesOf(peer, ids['Went out']!), deletesOf(peer, ids['Hidden by the writer']!), deletesOf(peer, ids['Under a hidden post']!)]).toEqual([1, 1, 0]);
    const remove = peer.received.find((a): a is Delete => a instanceof Delete && a.objectId?.href === ids['Went out']);
    // Signed by the account that wrote it (the peer verified it with the key it knew), the comment's own actor.
    expect(remove?.actorId?.href).toBe(`${site.origin}/ap/actors/${leaver.user.id}`);
    // The writer's answer moved up and is still there, and still answers at its id.
    expect(deletesOf(peer, answerId)).toBe(0);
    expect((await fetch(answerId, { headers: { accept: AP } })).status).toBe(200);
    expect((await fetch(ids['Went out']!, { headers: { accept: AP } })).status).toBe(404);
  });
});
