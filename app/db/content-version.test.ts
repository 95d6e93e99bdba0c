import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { HARBOUR_BLOG as BLOG } from '#test/blog-inputs';
import { addComment, createBlog, likeBlog, recordView, unlikeBlog } from '~/features/blogs/blogs.service.server';
import type { TestUser } from '#test/test-app';
import { readContentVersions, readCurrentVersions } from './content-version.server';

describeOnDialects('content versions on %s', (t) => {
  let owner: TestUser;
  let readers: TestUser[];
  const versions = () => readContentVersions(t.deps.database.db);

  beforeAll(async () => {
    owner = await t.createUser();
    readers = [];
    for (let i = 0; i < 8; i++) readers.push(await t.createUser());
  });

  it('moves a blog\'s revision on its comment, like, edit or author rename; lists only on listed changes; nothing on a view; sessions on sign-out', async () => {
    const page = (id: string) => readCurrentVersions(t.deps.database, id);
    const start = await versions();
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG });
    const { insertedId: elsewhere } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Elsewhere' });
    const afterBlog = await page(insertedId);
    expect(afterBlog.lists).toBeGreaterThan(start.lists);
    const other = await page(elsewhere);

    await recordView(t.context(readers[0]!.user), insertedId, { address: '127.0.0.1', userAgent: '' }, t.deps.views);
    expect(await t.deps.views.flush()).toBe(1);
    expect(await page(insertedId)).toEqual(afterBlog);

    await addComment(t.context(readers[0]!.user), insertedId, { commentText: 'Lovely.' });
    const afterComment = await page(insertedId);
    expect(afterComment.blog).toBeGreaterThan(afterBlog.blog!);
    expect(afterComment.lists).toBe(afterBlog.lists);

    await likeBlog(t.context(readers[1]!.user), insertedId);
    const afterLike = await page(insertedId);
    expect(afterLike.blog).toBeGreaterThan(afterComment.blog!);
    expect(afterLike.lists).toBe(afterBlog.lists);
    expect(afterLike.sessions).toBe(start.sessions);
    // Nothing happened to the other blog: its page stays.
    expect(await page(elsewhere)).toEqual({ ...other, lists: afterLike.lists });

    await t.deps.database.db.updateTable('blogs').set({ title: 'Retitled by hand' }).where('id', '=', insertedId).execute();
    const afterEdit = await page(insertedId);
    expect(afterEdit.blog).toBeGreaterThan(afterLike.blog!);
    expect(afterEdit.lists).toBeGreaterThan(afterLike.lists);
    // The writer's other blog shows this one's title at its end (docs/decisions/061): her version
    // moves, not the other blog's revision (docs/decisions/093).
    const otherAfterEdit = await page(elsewhere);
    expect(otherAfterEdit.blog).toBe(other.blog);
    expect(otherAfterEdit.writer).toBeGreaterThan(other.writer!);
    expect(afterEdit.writer).toBe(otherAfterEdit.writer);

    // A commenter's new name shows on the blogs they commented on, and on lists.
    await t.deps.database.db.updateTable('user').set({ name: 'Renamed Reader' }).where('id', '=', readers[0]!.user.id).execute();
    const afterRename = await page(insertedId);
    expect(afterRename.blog).toBeGreaterThan(afterEdit.blog!);
    expect(afterRename.lists).toBeGreaterThan(afterEdit.lists);
    expect((await page(elsewhere)).blog).toBe(otherAfterEdit.blog);

    const reader = await t.createUser();
    const beforeSignOut = await versions();
    const res = await t.request('/api/auth/sign-out', { method: 'POST', headers: { cookie: reader.cookie }, json: {} });
    expect(res.status).toBe(200);
    expect((await versions()).sessions).toBeGreaterThan(beforeSignOut.sessions);
    expect(await page('no-such-blog')).toMatchObject({ blog: null, writer: null });
  });

  it('takes many likes, unlikes and comments on the same blogs at once without a failure or a lost count', async () => {
    const blogs = await Promise.all([1, 2, 3].map((n) => createBlog(t.context(owner.user), { ...BLOG, title: `Busy ${n}` })));
    const ids = blogs.map((b) => b.insertedId);
    const before = await Promise.all(ids.map((id) => readCurrentVersions(t.deps.database, id)));
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
    for (const [i, id] of ids.entries()) expect((await readCurrentVersions(t.deps.database, id)).blog).toBeGreaterThan(before[i]!.blog!);
  });

  it('answers reads made together each with its own blog (one query on PostgreSQL), and a read asked after a like sees it', async () => {
    const blogs = await Promise.all([1, 2, 3].map((n) => createBlog(t.context(owner.user), { ...BLOG, title: `Together ${n}` })));
    const ids = blogs.map((b) => b.insertedId);
    await likeBlog(t.context(readers[0]!.user), ids[1]!);
    await likeBlog(t.context(readers[1]!.user), ids[1]!);
    // The query itself, without the version listener's memory (decision 044; tested below).
    const database = { ...t.deps.database, versionListener: undefined };
    const alone = await Promise.all(ids.map(async (id) => (await readCurrentVersions(database, id)).blog));
    expect(new Set(alone).size).toBeGreaterThan(1);
    // All at once, with the same blog twice, one that does not exist and none at all; on
    // PostgreSQL the pool is watched (not replaced) to count the queries they cost.
    const pool = t.deps.database.pgPool;
    let queries = 0;
    const query = pool?.query;
    if (pool) pool.query = ((...args: Parameters<typeof pool.query>) => ((queries += 1), query!.apply(pool, args))) as typeof pool.query;
    const together = await Promise.all([...ids, ids[0]!, 'no-such-blog', null].map((id) => readCurrentVersions(database, id))).finally(() => {
      if (pool) pool.query = query!;
    });
    if (pool) expect(queries).toBe(1);
    expect(together.map((v) => v.blog)).toEqual([...alone, alone[0], null, null]);
    expect(new Set(together.map((v) => `${v.lists}/${v.sessions}`)).size).toBe(1);
    // A like committed before the reads are asked is in their answer, the same turn or not.
    await likeBlog(t.context(readers[2]!.user), ids[0]!);
    const after = await Promise.all([readCurrentVersions(database, ids[0]!), readCurrentVersions(database, ids[2]!)]);
    expect(after.map((v) => v.blog)).toEqual([alone[0]! + 1, alone[2]]);
  });

  it('sends at most one read query at a time on PostgreSQL: reads asked meanwhile share the next, which sees what was committed before them', async (test) => {
    const pool = t.deps.database.pgPool;
    if (!pool) return test.skip('SQLite reads in process, with no query to share');
    const database = { ...t.deps.database, versionListener: undefined };
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'One at a time' });
    const before = (await readCurrentVersions(database, insertedId)).blog!;
    // The first read's query is held at the pool until released; the like below is written
    // through its own connection, not held.
    const query = pool.query;
    let sent = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    pool.query = ((...args: Parameters<typeof pool.query>) => {
      sent += 1;
      return sent === 1 ? held.then(() => query.apply(pool, args)) : query.apply(pool, args);
    }) as typeof pool.query;
    try {
      const first = Promise.resolve(readCurrentVersions(database, insertedId));
      while (sent === 0) await new Promise((resolve) => setImmediate(resolve));
      await likeBlog(t.context(readers[3]!.user), insertedId);
      const later = [readCurrentVersions(database, insertedId)];
      await new Promise((resolve) => setImmediate(resolve));
      later.push(readCurrentVersions(database, null), readCurrentVersions(database, insertedId));
      expect(sent).toBe(1);
      release();
      await first;
      const answers = await Promise.all(later);
      expect(sent).toBe(2);
      expect([answers[0]!.blog, answers[2]!.blog]).toEqual([before + 1, before + 1]);
    } finally {
      release();
      pool.query = query;
    }
  });

  it('never answers a counter that a transaction still open has moved', async () => {
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Undecided' });
    const before = await readCurrentVersions(t.deps.database, insertedId);
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
    const during = Promise.resolve(readCurrentVersions(t.deps.database, insertedId));
    release();
    await expect(writing).rejects.toThrow('changed my mind');
    expect(await during).toEqual(before);
    expect(await readCurrentVersions(t.deps.database, insertedId)).toEqual(before);
  });
});
