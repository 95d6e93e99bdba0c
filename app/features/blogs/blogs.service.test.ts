import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { blogInput as input } from '#test/blog-inputs';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import { createTestApp, type TestUser } from '#test/test-app';
import { getAuthor } from '~/features/users/users.service.server';
import { addComment, createBlog, getBlog, getBlogWithAuthor, likeBlog, listAuthorBlogs, listRecentBlogs, updateBlog } from './blogs.service.server';

/** The contracts other features rely on (Home's Recent Blogs, the wishlist), on a fixed clock. */
describeOnDialects('blog service on %s', (t, dialect) => {
  let owner: TestUser;
  let other: TestUser;
  let at = Date.parse('2026-11-20T08:00:00.000Z');
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), now: () => new Date((at += 60_000)) });

  beforeAll(async () => {
    owner = await t.createUser({ name: 'Ada Owner' });
    other = await t.createUser();
  });

  it('getBlog throws not_found for unknown ids and for another user’s Hidden blog', async () => {
    const { insertedId } = await createBlog(ctx(owner), input({ availability: 'Hidden' }));
    await expect(getBlog(ctx(owner), insertedId)).resolves.toMatchObject({ _id: insertedId, availability: 'Hidden', comments: [] });
    for (const viewer of [null, other]) {
      await expect(getBlog(ctx(viewer), insertedId)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    }
    await expect(getBlog(ctx(null), 'no-such-id')).rejects.toBeInstanceOf(AppError);
  });

  it('lists an author’s blogs newest first: Public for everyone, Hidden ones for the author alone', async () => {
    const writer = await t.createUser({ name: 'Wren Author' });
    const older = await createBlog(ctx(writer), input({ title: 'Older public' }));
    const hidden = await createBlog(ctx(writer), input({ title: 'Hidden draft', availability: 'Hidden' }));
    const newer = await createBlog(ctx(writer), input({ title: 'Newer public' }));
    for (const viewer of [null, other]) {
      expect((await listAuthorBlogs(ctx(viewer), writer.user.id)).map((b) => b._id)).toEqual([newer.insertedId, older.insertedId]);
    }
    expect((await listAuthorBlogs(ctx(writer), writer.user.id)).map((b) => b._id)).toEqual([newer.insertedId, hidden.insertedId, older.insertedId]);
    expect(await listAuthorBlogs(ctx(null), 'no-such-user')).toEqual([]);
    expect((await getBlogWithAuthor(ctx(null), older.insertedId)).authorId).toBe(writer.user.id);
    expect(await getAuthor(ctx(null), writer.user.id)).toEqual({ id: writer.user.id, name: 'Wren Author', photo: null, bio: null, website: null, links: [] });
    await expect(getAuthor(ctx(null), 'no-such-user')).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('stamps the blog with the clock and the session user', async () => {
    const before = at;
    const { insertedId } = await createBlog(ctx(owner), input());
    const blog = await getBlog(ctx(null), insertedId);
    expect(blog.createdAt).toBe(new Date(before + 60_000).toISOString());
    expect(blog).toMatchObject({ isOwner: false, name: 'Ada Owner', likes: 0, views: 0, likedBy: [] });
    expect(blog).not.toHaveProperty('email');
    expect(await getBlog(ctx(owner), insertedId)).toMatchObject({ isOwner: true, email: owner.user.email });
  });

  it('listRecentBlogs answers the 6 newest Public blogs, even to their owner', async () => {
    const fresh = await createTestApp(dialect);
    try {
      const writer = await fresh.createUser();
      let clock = Date.parse('2026-11-21T08:00:00.000Z');
      const wctx: ServiceContext = { ...fresh.context(writer.user), now: () => new Date((clock += 1000)) };
      for (let i = 0; i < 8; i++) await createBlog(wctx, input({ title: `Public ${i}` }));
      await createBlog(wctx, input({ title: 'Draft', availability: 'Hidden' }));
      const recent = await listRecentBlogs(wctx);
      expect(recent.map((b) => b.title)).toEqual(['Public 7', 'Public 6', 'Public 5', 'Public 4', 'Public 3', 'Public 2']);
      expect(Object.keys(recent[0]!).sort()).toEqual(
        ['_id', 'availability', 'category', 'createdAt', 'details', 'email', 'isOwner', 'likedBy', 'likes', 'long_description', 'mail', 'name', 'photo', 'photo_focus', 'photo_position', 'short_description', 'slug', 'tags', 'title', 'type', 'views'].sort(),
      );
    } finally {
      await fresh.close();
    }
  });

  it('keeps rules in the service: owner-only update, no comment on one’s own blog, one like each', async () => {
    const { insertedId } = await createBlog(ctx(owner), input());
    await expect(updateBlog(ctx(other), insertedId, { title: 'x' })).rejects.toMatchObject({ code: 'forbidden', message: MESSAGES.onlyOwnerUpdate });
    await expect(updateBlog(ctx(null), insertedId, { title: 'x' })).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(addComment(ctx(owner), insertedId, { commentText: 'me' })).rejects.toMatchObject({ code: 'forbidden', message: MESSAGES.cantCommentOwn });
    expect(await likeBlog(ctx(other), insertedId)).toEqual({ modifiedCount: 1, likes: 1 });
    expect(await likeBlog(ctx(other), insertedId)).toEqual({ modifiedCount: 0, likes: 1 });
  });

  it('takes concurrent likes from many users without losing one', async () => {
    const { insertedId } = await createBlog(ctx(owner), input());
    const fans = await Promise.all(Array.from({ length: 6 }, () => t.createUser()));
    await Promise.all(fans.flatMap((fan) => [likeBlog(ctx(fan), insertedId), likeBlog(ctx(fan), insertedId)]));
    expect((await getBlog(ctx(null), insertedId)).likes).toBe(6);
  });
});
