import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { deleteContent, hideContent, reportContent, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { TestUser } from '#test/test-app';
import { createBlog, getBlog } from './blogs.service.server';
import { addComment, deleteComment, listThread, replyToComment, setCommentHidden, setCommentLiked, setCommentPinned } from './comments.service.server';

/** Threads (docs/decisions/060): replies, the writer's answers, likes, pin, hide and "[deleted]". */
describeOnDialects('comment threads on %s', (t) => {
  let writer: TestUser;
  let reader: TestUser;
  let third: TestUser;
  let blogId = '';
  const ctx = (u: TestUser | null) => t.context(u?.user ?? null);
  const comments = async (viewer: TestUser | null = null) => (await getBlog(ctx(viewer), blogId)).comments!;
  const texts = async (viewer: TestUser | null = null) => (await comments(viewer)).map((c) => `${'>'.repeat(c.depth)}${c.commentText}`);
  const revision = async () => (await t.deps.database.db.selectFrom('blogs').select(['revision', 'comments_count']).where('id', '=', blogId).executeTakeFirstOrThrow());

  beforeAll(async () => {
    [writer, reader, third] = [await t.createUser({ name: 'Wren Writer' }), await t.createUser({ name: 'Reed Reader' }), await t.createUser({ name: 'Thea Third' })];
    blogId = (await createBlog(ctx(writer), { title: 'T', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' })).insertedId;
  });

  it('a reader comments, the writer replies with the Author badge, a third reader answers her; counts include replies', async () => {
    await expect(addComment(ctx(writer), blogId, { commentText: 'Mine' })).rejects.toMatchObject({ status: 403, message: MESSAGES.cantCommentOwn });
    const before = await revision();
    await expect(addComment(ctx(reader), blogId, { commentText: 'Lovely' })).resolves.toEqual({ success: true });
    const top = { insertedId: (await comments())[0]!._id };
    const answer = await replyToComment(ctx(writer), top.insertedId, { commentText: 'Thank you' });
    await replyToComment(ctx(third), answer.insertedId, { commentText: 'Agreed' });
    expect(await texts()).toEqual(['Lovely', '>Thank you', '>>Agreed']);
    const shown = await comments();
    expect(shown.map((c) => [c.userName, c.isAuthor, c.parentId])).toEqual([
      ['Reed Reader', false, null],
      ['Wren Writer', true, top.insertedId],
      ['Thea Third', false, answer.insertedId],
    ]);
    const after = await revision();
    expect(after.comments_count).toBe(before.comments_count + 3);
    expect(after.revision).toBeGreaterThan(before.revision);
    await expect(replyToComment(ctx(null), top.insertedId, { commentText: 'x' })).rejects.toMatchObject({ status: 401 });
    await expect(replyToComment(ctx(reader), 'nope', { commentText: 'x' })).rejects.toMatchObject({ status: 404 });
    expect((await listThread(ctx(null), answer.insertedId)).comments.map((c) => c.commentText)).toEqual(['Thank you', 'Agreed']);
  });

  it('says "comment posted" for a reply (its parent and the parent’s author) and "comment liked" once per like', async () => {
    const events = async (name: string) =>
      (await t.deps.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'event').execute())
        .map((r) => JSON.parse(r.payload) as { name: string; data: Record<string, unknown> })
        .filter((e) => e.name === name)
        .map((e) => e.data);
    const [top, answer] = await comments();
    const reply = await replyToComment(ctx(third), top!._id, { commentText: 'Me too' });
    expect(await events('comment.posted')).toContainEqual({ commentId: reply.insertedId, blogId, blogOwnerId: writer.user.id, authorId: third.user.id, parentId: top!._id, parentAuthorId: reader.user.id, remoteAuthor: null });
    await setCommentLiked(ctx(reader), answer!._id, true);
    await setCommentLiked(ctx(reader), answer!._id, true);
    expect((await events('comment.liked')).filter((e) => e.commentId === answer!._id)).toEqual([{ commentId: answer!._id, blogId, authorId: writer.user.id, userId: reader.user.id }]);
    await setCommentLiked(ctx(reader), answer!._id, false);
    await deleteComment(ctx(third), reply.insertedId);
  });

  it('likes: one per reader, never one’s own, and the page is fresh at once', async () => {
    const [top] = await comments();
    await expect(setCommentLiked(ctx(reader), top!._id, true)).rejects.toMatchObject({ status: 403, message: MESSAGES.cantLikeOwnComment });
    const before = (await revision()).revision;
    await expect(setCommentLiked(ctx(third), top!._id, true)).resolves.toEqual({ modifiedCount: 1, likes: 1 });
    await expect(setCommentLiked(ctx(third), top!._id, true)).resolves.toEqual({ modifiedCount: 0, likes: 1 });
    expect((await revision()).revision).toBeGreaterThan(before);
    expect((await comments(third))[0]).toMatchObject({ likes: 1, likedByMe: true });
    expect((await comments(writer))[0]).toMatchObject({ likes: 1, likedByMe: false });
    await expect(setCommentLiked(ctx(third), top!._id, false)).resolves.toEqual({ modifiedCount: 1, likes: 0 });
  });

  it('the writer pins one top-level comment, which comes first; nobody else pins, and no reply', async () => {
    await addComment(ctx(third), blogId, { commentText: 'Later' });
    const [first, reply, , laterComment] = await comments();
    const later = { insertedId: laterComment!._id };
    await expect(setCommentPinned(ctx(reader), later.insertedId, true)).rejects.toMatchObject({ status: 403, message: MESSAGES.onlyWriterPinsOrHides });
    await expect(setCommentPinned(ctx(writer), reply!._id, true)).rejects.toMatchObject({ status: 400, message: MESSAGES.onlyTopLevelPinned });
    await expect(setCommentPinned(ctx(writer), later.insertedId, true)).resolves.toEqual({ modifiedCount: 1 });
    expect((await texts())[0]).toBe('Later');
    expect((await comments())[0]).toMatchObject({ pinned: true });
    // Pinning another unpins the first: one per post.
    await setCommentPinned(ctx(writer), first!._id, true);
    expect((await comments()).filter((c) => c.pinned).map((c) => c._id)).toEqual([first!._id]);
    await setCommentPinned(ctx(writer), first!._id, false);
    expect(await texts()).toEqual(['Lovely', '>Thank you', '>>Agreed', 'Later']);
  });

  it('a hidden comment is gone for others, replies and all; its author and the writer see it marked', async () => {
    const [top] = await comments();
    await expect(setCommentHidden(ctx(third), top!._id, true)).rejects.toMatchObject({ status: 403 });
    await expect(setCommentHidden(ctx(writer), top!._id, true)).resolves.toEqual({ modifiedCount: 1 });
    expect(await texts()).toEqual(['Later']);
    expect(await texts(third)).toEqual(['Later']);
    for (const viewer of [writer, reader]) {
      expect((await comments(viewer))[0]).toMatchObject({ commentText: 'Lovely', hidden: true });
    }
    await expect(replyToComment(ctx(third), top!._id, { commentText: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(listThread(ctx(null), top!._id)).rejects.toMatchObject({ status: 404 });
    await setCommentHidden(ctx(writer), top!._id, false);
    expect(await texts()).toEqual(['Lovely', '>Thank you', '>>Agreed', 'Later']);
  });

  it('deleting a comment with replies leaves "[deleted]" above them; without replies it goes', async () => {
    const [, answer, agreed] = await comments();
    const before = (await revision()).comments_count;
    await expect(deleteComment(ctx(writer), answer!._id)).resolves.toEqual({ deletedCount: 1 });
    expect(await texts()).toEqual(['Lovely', `>${MESSAGES.deletedComment}`, '>>Agreed', 'Later']);
    expect((await comments())[1]).toMatchObject({ deleted: true, userName: MESSAGES.deletedComment, isAuthor: false });
    await expect(replyToComment(ctx(reader), answer!._id, { commentText: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(deleteComment(ctx(third), agreed!._id)).resolves.toEqual({ deletedCount: 1 });
    // The placeholder has nothing left to hold up.
    expect(await texts()).toEqual(['Lovely', 'Later']);
    expect((await revision()).comments_count).toBe(before - 2);
  });

  it('moderation acts on replies: a report, a moderator’s hide, and a delete for good that leaves "[deleted]" above the replies', async () => {
    const mod = await t.createUser({ name: 'Mona Moderator' });
    await setAdminByOperator(t.context(null), mod.user.email, true);
    const question = await addComment(ctx(third), blogId, { commentText: 'Where exactly?' }).then(async () => (await comments()).at(-1)!._id);
    const reply = await replyToComment(ctx(reader), question, { commentText: 'Spam link here' });
    await replyToComment(ctx(writer), reply.insertedId, { commentText: 'Please keep it kind' });
    await expect(reportContent(ctx(third), { targetType: 'comment', targetId: reply.insertedId, reason: 'Spam', details: '' })).resolves.toMatchObject({ insertedId: expect.any(String) });
    const why = { reason: 'Spam' };
    await hideContent(ctx(mod), 'comment', reply.insertedId, why);
    // Removed by a moderator: gone for others with what answers it; its author sees it and why.
    expect((await texts()).slice(-1)).toEqual(['Where exactly?']);
    expect((await comments(reader)).find((c) => c._id === reply.insertedId)).toMatchObject({ removed: why });
    await expect(deleteContent(ctx(mod), 'comment', question, why)).resolves.toEqual({ deletedCount: 1 });
    expect((await comments(reader)).slice(-3).map((c) => c.commentText)).toEqual([MESSAGES.deletedComment, 'Spam link here', 'Please keep it kind']);
    await expect(reportContent(ctx(reader), { targetType: 'comment', targetId: question, reason: 'Spam', details: '' })).rejects.toMatchObject({ status: 404 });
  });

  it('a reply, a like, a pin and a hide are on the kept anonymous copy of the blog at once', async () => {
    await addComment(ctx(reader), blogId, { commentText: 'Fresh top' });
    const anonymous = async () => ((await (await t.request(`/api/blogs/${blogId}`)).json()) as { comments: { _id: string; commentText: string; likes: number; pinned: boolean }[] }).comments;
    const as = (user: TestUser, method: string, path: string, json?: unknown) => t.request(path, { method, headers: { cookie: user.cookie }, json });
    const fresh = (await anonymous()).find((c) => c.commentText === 'Fresh top')!;
    expect((await as(third, 'POST', `/api/comments/${fresh._id}/replies`, { commentText: 'Fresh reply' })).status).toBe(200);
    expect((await anonymous()).some((c) => c.commentText === 'Fresh reply')).toBe(true);
    expect((await as(third, 'POST', `/api/comments/${fresh._id}/like`)).status).toBe(200);
    expect((await anonymous()).find((c) => c._id === fresh._id)!.likes).toBe(1);
    expect((await as(writer, 'POST', `/api/comments/${fresh._id}/pin`)).status).toBe(200);
    expect((await anonymous())[0]).toMatchObject({ _id: fresh._id, pinned: true });
    expect((await as(writer, 'POST', `/api/comments/${fresh._id}/hide`)).status).toBe(200);
    expect((await anonymous()).some((c) => c.commentText === 'Fresh top' || c.commentText === 'Fresh reply')).toBe(false);
  });
});
