import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { blogInput as input } from '#test/blog-inputs';
import type { ServiceContext } from '~/lib/core/service-context';
import type { TestUser } from '#test/test-app';
import { createBlog, getBlog, getBlogWithAuthor, listBlogs, updateBlog } from '~/features/blogs/blogs.service.server';
import { setShowViews } from '~/features/users/users.service.server';
import { getTag, listIndexableTags, setBlogTags, suggestTags, tagsOfBlogs } from './tags.service.server';
import { TagsSchema } from './tags.schema';

/** Tags, readable addresses and the writer's view-count choice (docs/decisions/069), on both databases. */
describeOnDialects('tags on %s', (t) => {
  let writer: TestUser;
  let other: TestUser;
  let at = Date.parse('2026-11-20T08:00:00.000Z');
  const ctx = (user: TestUser | null): ServiceContext => ({ ...t.context(user?.user ?? null), now: () => new Date((at += 60_000)) });

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Tess Tagger' });
    other = await t.createUser();
  });

  it('tidies tags as written: trimmed, # and spaces made plain, one per case, refused past the limits', () => {
    expect(TagsSchema.parse(' #Night sky , night-SKY,film_photography,, ')).toEqual(['Night-sky', 'film-photography']);
    expect(TagsSchema.parse(['Über', 'über', 'Tokyo2026'])).toEqual(['Über', 'Tokyo2026']);
    expect(TagsSchema.safeParse('a, b, c, d, e, f, g, h, i, j, k').success).toBe(false);
    expect(TagsSchema.safeParse('x'.repeat(33)).success).toBe(false);
    expect(TagsSchema.safeParse('semi;colon').success).toBe(false);
  });

  it('keeps a post’s tags in order with the post, shows them, finds posts by tag, and replaces them on update', async () => {
    const { insertedId } = await createBlog(ctx(writer), input({ title: 'Stars over the harbour', tags: ['Night-sky', 'harbour'] }));
    expect((await getBlog(ctx(null), insertedId)).tags).toEqual(['Night-sky', 'harbour']);
    expect((await tagsOfBlogs(ctx(null), [insertedId, 'none'])).get(insertedId)).toEqual(['Night-sky', 'harbour']);
    expect(await getTag(ctx(null), 'NIGHT-sky')).toEqual({ key: 'night-sky', name: 'Night-sky' });
    expect((await listBlogs(ctx(null), { tag: 'night-sky', page: 1, limit: 10 })).blogs.map((b) => b._id)).toEqual([insertedId]);
    // Another writer's spelling of the same tag is the same tag.
    const second = await createBlog(ctx(other), input({ title: 'Lamps', tags: ['NIGHT-SKY'] }));
    expect((await getBlog(ctx(null), second.insertedId)).tags).toEqual(['Night-sky']);
    expect((await listBlogs(ctx(null), { tag: 'night-sky', page: 1, limit: 10 })).total).toBe(2);

    await updateBlog(ctx(writer), insertedId, { tags: ['tides'] });
    expect((await getBlog(ctx(null), insertedId)).tags).toEqual(['tides']);
    expect((await listBlogs(ctx(null), { tag: 'night-sky', page: 1, limit: 10 })).total).toBe(1);
    // An update without tags leaves them alone.
    await updateBlog(ctx(writer), insertedId, { details: 'More.' });
    expect((await getBlog(ctx(null), insertedId)).tags).toEqual(['tides']);
  });

  it('lets only the writer set a post’s tags, and refuses a bad one without changing anything', async () => {
    const { insertedId } = await createBlog(ctx(writer), input({ tags: ['kept'] }));
    await expect(setBlogTags(ctx(other), insertedId, ['mine'])).rejects.toMatchObject({ code: 'forbidden' });
    await expect(setBlogTags(ctx(null), insertedId, ['mine'])).rejects.toMatchObject({ status: 401 });
    await expect(setBlogTags(ctx(writer), insertedId, ['bad;tag'])).rejects.toMatchObject({ code: 'bad_request', field: 'tags' });
    await expect(setBlogTags(ctx(writer), 'no-such-blog', ['x'])).rejects.toMatchObject({ code: 'not_found' });
    expect((await getBlog(ctx(null), insertedId)).tags).toEqual(['kept']);
    expect(await setBlogTags(ctx(writer), insertedId, ['Kept', 'more'])).toEqual(['kept', 'more']);
  });

  it('suggests tags of public posts only, most used first, by the beginning of their key', async () => {
    await createBlog(ctx(writer), input({ tags: ['typescript', 'typography'] }));
    await createBlog(ctx(other), input({ tags: ['TypeScript'] }));
    await createBlog(ctx(other), input({ availability: 'Hidden', tags: ['typewriter'] }));
    expect((await suggestTags(ctx(null), 'TYP')).map((tag) => [tag.name, tag.posts])).toEqual([
      ['typescript', 2],
      ['typography', 1],
    ]);
    expect(await suggestTags(ctx(null), 'zz')).toEqual([]);
    expect((await listIndexableTags(ctx(null))).map((tag) => tag.key)).not.toContain('typewriter');
  });

  it('finds posts by tag through the full-text search', async () => {
    const { insertedId } = await createBlog(ctx(writer), input({ title: 'A quiet evening', short_description: 'Nothing of note.', long_description: 'Plain words.', tags: ['astrophotography'] }));
    expect((await listBlogs(ctx(null), { q: 'astrophotography', page: 1, limit: 10 })).blogs.map((b) => b._id)).toEqual([insertedId]);
  });

  it('makes a slug from the title and a new one on a rename', async () => {
    const { insertedId } = await createBlog(ctx(writer), input({ title: 'Crème brûlée at Dawn!' }));
    expect((await getBlog(ctx(null), insertedId)).slug).toBe('creme-brulee-at-dawn');
    await updateBlog(ctx(writer), insertedId, { title: 'Like' });
    expect((await getBlog(ctx(null), insertedId)).slug).toBe('like-post');
  });

  it('hides a writer’s view counts from everyone but her when she chooses', async () => {
    const { insertedId } = await createBlog(ctx(writer), input());
    expect((await getBlog(ctx(null), insertedId)).views).toBe(0);
    await setShowViews(ctx(writer), false);
    expect((await getBlog(ctx(null), insertedId)).views).toBeNull();
    expect((await getBlog(ctx(other), insertedId)).views).toBeNull();
    expect((await getBlogWithAuthor(ctx(writer), insertedId)).blog.views).toBe(0);
    await setShowViews(ctx(writer), true);
    expect((await getBlog(ctx(null), insertedId)).views).toBe(0);
  });
});
