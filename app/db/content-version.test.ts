import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addComment, createBlog, likeBlog, recordView, unlikeBlog } from '~/features/blogs/blog.service.server';
import { createTestApp, type TestApp, type TestUser } from '#server/testing/test-app.server';
import { readContentVersions, readCurrentVersions } from './content-version.server';
import { TEST_DIALECTS } from './testing.server';

const BLOG = {
  title: 'Harbour lights',
  category: 'Travelling & Photography',
  type: 'Mini blog',
  short_description: 'Boats at dusk.',
  long_description: 'The last ferry, the first lamps.',
  availability: 'Public',
  photo: 'https://example.com/harbour.jpg',
} as const;

describe.each(TEST_DIALECTS)('content versions on %s', (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let readers: TestUser[];
  const versions = () => readContentVersions(t.deps.database.db);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await t.createUser();
    readers = [];
    for (let i = 0; i < 8; i++) readers.push(await t.createUser());
  });
  afterAll(async () => t?.close());

  it('moves content on a blog, a comment or a like; nothing on a view, written or not; sessions on sign-out', async () => {
    const start = await versions();
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG });
    const afterBlog = await versions();
    expect(afterBlog.content).toBeGreaterThan(start.content);
    expect(afterBlog.views).toBe(start.views);

    await recordView(t.context(readers[0]!.user), insertedId, { address: '127.0.0.1', userAgent: '' }, t.deps.views);
    expect(await t.deps.views.flush()).toBe(1);
    const afterView = await versions();
    expect(afterView).toEqual(afterBlog);

    await addComment(t.context(readers[0]!.user), insertedId, { commentText: 'Lovely.' });
    const afterComment = await versions();
    expect(afterComment.content).toBeGreaterThan(afterView.content);

    await likeBlog(t.context(readers[1]!.user), insertedId);
    const afterLike = await versions();
    expect(afterLike.content).toBeGreaterThan(afterComment.content);
    expect(afterLike.sessions).toBe(start.sessions);

    const reader = await t.createUser();
    const beforeSignOut = await versions();
    const res = await t.request('/api/auth/sign-out', { method: 'POST', headers: { cookie: reader.cookie }, json: {} });
    expect(res.status).toBe(200);
    expect((await versions()).sessions).toBeGreaterThan(beforeSignOut.sessions);
  });

  it('takes many likes, unlikes and comments on the same blogs at once without a failure or a lost count', async () => {
    const blogs = await Promise.all([1, 2, 3].map((n) => createBlog(t.context(owner.user), { ...BLOG, title: `Busy ${n}` })));
    const ids = blogs.map((b) => b.insertedId);
    const before = await versions();
    // Each reader comments on, likes and unlikes every blog, all at once: on PostgreSQL these
    // transactions run side by side on the pool's connections and lock the same blog rows.
    const work = readers.flatMap((reader) =>
      ids.flatMap((id) => [
        addComment(t.context(reader.user), id, { commentText: `From ${reader.user.name}` }),
        likeBlog(t.context(reader.user), id).then(() => unlikeBlog(t.context(reader.user), id)).then(() => likeBlog(t.context(reader.user), id)),
      ]),
    );
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);

    const rows = await t.deps.database.db.selectFrom('blogs').select(['id', 'likes', 'comments_count']).where('id', 'in', ids).execute();
    for (const row of rows) expect([row.likes, row.comments_count]).toEqual([readers.length, readers.length]);
    expect((await versions()).content).toBeGreaterThan(before.content);
  });

  it('never answers a counter that a transaction still open has moved', async () => {
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Undecided' });
    const before = await readCurrentVersions(t.deps.database);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const writing = t.deps.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('blogs').set({ title: 'Decided' }).where('id', '=', insertedId).execute();
      entered();
      await gate;
      throw new Error('changed my mind');
    });
    await inside;
    const during = Promise.resolve(readCurrentVersions(t.deps.database));
    release();
    await expect(writing).rejects.toThrow('changed my mind');
    expect((await during).content).toBe(before.content);
    expect((await readCurrentVersions(t.deps.database)).content).toBe(before.content);
  });
});
