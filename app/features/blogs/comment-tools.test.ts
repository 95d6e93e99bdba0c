import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { MESSAGES } from '~/lib/texts/messages';
import type { TestUser } from '#test/test-app';
import { addComment, createBlog, deleteComment, editComment, getBlog } from './blogs.service.server';

/** Writers' own tools (docs/product.md#community-features): edit and delete one's comment; a blog's owner deletes comments on it. */
describeOnDialects('comment tools on %s', (t) => {
  let owner: TestUser;
  let author: TestUser;
  let stranger: TestUser;
  let blogId = '';
  const ctx = (u: TestUser | null) => t.context(u?.user ?? null);
  const comments = async () => (await getBlog(ctx(null), blogId)).comments!;

  beforeAll(async () => {
    [owner, author, stranger] = [await t.createUser(), await t.createUser(), await t.createUser()];
    blogId = (await createBlog(ctx(owner), { title: 'T', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' })).insertedId;
  });

  it('the author edits a comment, shown as edited; nobody else can', async () => {
    await addComment(ctx(author), blogId, { commentText: 'Frist' });
    const [comment] = await comments();
    expect(comment).toMatchObject({ edited: false });
    await expect(editComment(ctx(stranger), comment!._id, { commentText: 'Hijacked' })).rejects.toMatchObject({ status: 403, message: MESSAGES.onlyCommentAuthor });
    await expect(editComment(ctx(owner), comment!._id, { commentText: 'Hijacked' })).rejects.toMatchObject({ status: 403 });
    await expect(editComment(ctx(null), comment!._id, { commentText: 'Hijacked' })).rejects.toMatchObject({ status: 401 });
    await expect(editComment(ctx(author), 'nope', { commentText: 'x' })).rejects.toMatchObject({ status: 404 });
    await expect(editComment(ctx(author), comment!._id, { commentText: 'First' })).resolves.toEqual({ modifiedCount: 1 });
    expect(await comments()).toEqual([expect.objectContaining({ commentText: 'First', edited: true })]);
  });

  it('the author or the blog’s owner deletes a comment, and the count follows; nobody else can', async () => {
    await addComment(ctx(author), blogId, { commentText: 'Second' });
    const [first, second] = await comments();
    await expect(deleteComment(ctx(stranger), first!._id)).rejects.toMatchObject({ status: 403, message: MESSAGES.onlyCommentAuthorOrBlogOwner });
    await expect(deleteComment(ctx(author), first!._id)).resolves.toEqual({ deletedCount: 1 });
    await expect(deleteComment(ctx(owner), second!._id)).resolves.toEqual({ deletedCount: 1 });
    expect(await comments()).toEqual([]);
    const row = await t.deps.database.db.selectFrom('blogs').select('comments_count').where('id', '=', blogId).executeTakeFirstOrThrow();
    expect(row.comments_count).toBe(0);
  });
});
