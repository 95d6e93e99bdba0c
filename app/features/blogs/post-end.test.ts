import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { HARBOUR_BLOG as BLOG } from '#test/blog-inputs';
import type { TestUser } from '#test/test-app';
import { readCurrentVersions } from '~/db/content-version.server';
import { hideContent, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { createBlog, deleteBlog, getBlogWithAuthor, getPostEnd, likeBlog, updateBlog } from './blogs.service.server';

describeOnDialects('the end of a post on %s', (t) => {
  let writer: TestUser;
  let other: TestUser;
  let admin: TestUser;
  const ids: Record<string, string> = {};
  const write = async (title: string, availability: 'Public' | 'Hidden' = 'Public') => {
    ids[title] = (await createBlog(t.context(writer.user), { ...BLOG, title, availability })).insertedId;
    // Distinct creation times keep the order by date unambiguous.
    await new Promise((r) => setTimeout(r, 5));
  };
  const endOf = async (title: string, viewer: TestUser | null = null) => {
    const { blog, authorId } = await getBlogWithAuthor(t.context(viewer?.user ?? null), ids[title]!);
    const end = await getPostEnd(t.context(viewer?.user ?? null), { id: blog._id, ownerId: authorId, createdAt: blog.createdAt });
    return { previous: end.previous?.title ?? null, next: end.next?.title ?? null, more: end.more.map((p) => p.title) };
  };
  const versionsOf = async (title: string) => {
    const { blog, writer } = await readCurrentVersions(t.deps.database, ids[title]!);
    return { blog, writer };
  };

  beforeAll(async () => {
    admin = await t.createUser({ name: 'Admin' });
    writer = await t.createUser({ name: 'Wren', image: '/uploads/wren.webp' });
    other = await t.createUser({ name: 'Otto' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    for (const title of ['One', 'Two', 'Three']) await write(title);
  });

  it("shows the writer's post before and after by date, and her newest others; only what everyone may see", async () => {
    expect(await endOf('Two')).toEqual({ previous: 'One', next: 'Three', more: [] });
    expect(await endOf('One')).toEqual({ previous: null, next: 'Two', more: ['Three'] });
    await write('Four');
    await write('A draft', 'Hidden');
    await write('Five');
    expect(await endOf('Two')).toEqual({ previous: 'One', next: 'Three', more: ['Five', 'Four'] });
    // The draft is nobody's neighbour, not even for its writer (the part is the same for everyone).
    expect(await endOf('Four', writer)).toEqual({ previous: 'Three', next: 'Five', more: ['Two', 'One'] });
    // A blog a moderator removed is gone from its writer's other posts too.
    await hideContent(t.context(admin.user), 'blog', ids.Five!, { reason: 'Spam' });
    expect(await endOf('Four')).toEqual({ previous: 'Three', next: null, more: ['Two', 'One'] });
    // Another writer's posts never appear.
    await createBlog(t.context(other.user), { ...BLOG, title: 'Not hers' });
    expect((await endOf('Three')).more).not.toContain('Not hers');
  });

  it('gives the byline the writer’s photo as she shows it now', async () => {
    expect((await getBlogWithAuthor(t.context(null), ids.One!)).authorPhoto).toBe('/uploads/wren.webp');
    expect((await getBlogWithAuthor(t.context(null), (await createBlog(t.context(other.user), { ...BLOG, title: 'No photo' })).insertedId)).authorPhoto).toBeNull();
  });

  it("makes the writer's pages stale when one of her posts comes, goes or changes what they show of it, by her version alone; a like or another writer's post moves nothing", async () => {
    const before = await versionsOf('One');
    await likeBlog(t.context(other.user), ids.Two!);
    await createBlog(t.context(other.user), { ...BLOG, title: 'Elsewhere' });
    expect(await versionsOf('One')).toEqual(before);

    // Her other posts' rows are not written (docs/decisions/093): their revisions stand.
    await write('Six');
    const afterNew = await versionsOf('One');
    expect(afterNew).toEqual({ blog: before.blog, writer: expect.any(Number) });
    expect(afterNew.writer).toBeGreaterThan(before.writer!);
    await likeBlog(t.context(other.user), ids.Six!);
    expect(await versionsOf('One')).toEqual(afterNew);
    await updateBlog(t.context(writer.user), ids.Six!, { title: 'Six, retitled' });
    const afterTitle = await versionsOf('One');
    expect(afterTitle.blog).toBe(before.blog);
    expect(afterTitle.writer).toBeGreaterThan(afterNew.writer!);
    // Every page of hers follows the same version.
    expect((await versionsOf('Two')).writer).toBe(afterTitle.writer);
    await deleteBlog(t.context(writer.user), ids.Six!);
    const afterDelete = await versionsOf('One');
    expect(afterDelete.blog).toBe(before.blog);
    expect(afterDelete.writer).toBeGreaterThan(afterTitle.writer!);
  });
});
