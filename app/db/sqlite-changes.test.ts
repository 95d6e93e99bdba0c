import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import { readCurrentVersions } from './content-version.server';
import { createDatabase, type DatabaseHandle } from './kysely.server';
import { UNSHOWN_TABLES } from './viewer-writes.server';

/**
 * What a SQLite instance knows of changes without asking (docs/decisions/059): its own statements
 * as they run, another connection's commits by `PRAGMA data_version` within a millisecond.
 */
describe('SQLite change watch', () => {
  const t = useTestApp('sqlite');
  let other: DatabaseHandle;
  let owner: TestUser;
  let reader: TestUser;
  let blogId = '';

  beforeAll(async () => {
    other = createDatabase({ sqlitePath: t.deps.config.SQLITE_PATH });
    owner = await t.createUser();
    reader = await t.createUser();
    ({ insertedId: blogId } = await createBlog(t.context(owner.user), { title: 'Harbour lights', category: 'Personal', type: 'Mini blog', short_description: 'Boats.', long_description: 'Lamps.', availability: 'Public', photo: '/uploads/harbour.webp' }));
  });
  afterAll(async () => other?.close());
  const changes = () => t.deps.database.sqliteChanges!;
  const later = () => new Promise((resolve) => setTimeout(resolve, 5));

  it('keeps a read between writes, and sees its own write at once', async () => {
    const first = await readCurrentVersions(t.deps.database, blogId);
    const generation = changes().generation;
    expect(await readCurrentVersions(t.deps.database, blogId)).toEqual(first);
    expect(changes().generation, 'a read moves nothing').toBe(generation);
    await likeBlog(t.context(reader.user), blogId);
    expect((await readCurrentVersions(t.deps.database, blogId)).blog, 'the revision moved with the like').toBeGreaterThan(first.blog!);
  });

  it('tells a write no version follows from one a version follows, and a write of no row from one', async () => {
    const viewer = changes().viewer.all;
    await t.deps.database.db.updateTable('blogs').set({ likes: 7 }).where('id', '=', blogId).execute();
    expect(changes().viewer.all, 'a blog change moves its revision instead').toBe(viewer);
    await sql`update follows set delivery = 'post' where follower_id = 'nobody'`.execute(t.deps.database.db);
    expect(changes().viewer.all, 'a write that changed no row').toBe(viewer);
    const readers = changes().viewer.of(reader.user.id);
    const owners = changes().viewer.of(owner.user.id);
    await followWriter(t.context(reader.user), owner.user.id);
    expect(changes().viewer.of(reader.user.id), 'a follow: the follower’s own pages').toBeGreaterThan(readers);
    expect(changes().viewer.of(owner.user.id), 'a follow: not the writer’s').toBe(owners);
    expect(changes().viewer.all, 'a follow: no one else’s').toBe(viewer);
    await sql`update "user" set name = 'Someone else' where id = ${reader.user.id}`.execute(t.deps.database.db);
    expect(changes().viewer.all, 'a change shown on others’ pages').toBeGreaterThan(viewer);
  });

  it('keeps its reads across writes of bookkeeping no page shows, alone or in a transaction, and not across a transaction that wrote a blog (docs/decisions/098)', async () => {
    const { db } = t.deps.database;
    const at = new Date().toISOString();
    const job = (key: string) => ({ id: crypto.randomUUID(), kind: 'test:nothing', key, payload: '{}', run_at: at, created_at: at });
    await readCurrentVersions(t.deps.database, blogId);
    let generation = changes().generation;
    await db.insertInto('jobs').values(job('one')).execute();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(job('two')).execute();
      await trx.deleteFrom('jobs').where('key', '=', 'one').execute();
    });
    expect(changes().generation, 'the job queue moves no version').toBe(generation);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('jobs').values(job('three')).execute();
      await trx.updateTable('blogs').set({ title: 'Harbour lights again' }).where('id', '=', blogId).execute();
    });
    expect(changes().generation, 'a blog written in the same transaction').toBeGreaterThan(generation);
    generation = changes().generation;
    const read = await readCurrentVersions(t.deps.database, blogId);
    await db.deleteFrom('jobs').where('kind', '=', 'test:nothing').execute();
    expect(await readCurrentVersions(t.deps.database, blogId)).toEqual(read);
    expect(changes().generation).toBe(generation);
  });

  it('has no trigger on a table no page shows that writes a table whose changes pages follow', () => {
    const triggers = t.deps.database.sqlite!.prepare("select tbl_name as tbl, sql from sqlite_master where type = 'trigger'").all() as { tbl: string; sql: string }[];
    const onBookkeeping = triggers.filter((trigger) => UNSHOWN_TABLES.has(trigger.tbl));
    const written = onBookkeeping.flatMap((trigger) => [...trigger.sql.matchAll(/\b(?:insert(?:\s+or\s+\w+)?\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?/gi)].map((m) => `${trigger.tbl} → ${m[1]!.toLowerCase()}`));
    expect(written.filter((entry) => !UNSHOWN_TABLES.has(entry.split(' → ')[1]!))).toEqual([]);
    expect(triggers.some((trigger) => trigger.tbl === 'blogs'), 'the check reads the triggers').toBe(true);
  });

  it('sees another connection’s commit within a millisecond', async () => {
    const before = await readCurrentVersions(t.deps.database, blogId);
    const viewer = changes().viewer.all;
    await other.db.updateTable('blogs').set({ title: 'Changed elsewhere' }).where('id', '=', blogId).execute();
    await later();
    const after = await readCurrentVersions(t.deps.database, blogId);
    expect(after.blog).toBeGreaterThan(before.blog!);
    expect(after.lists).toBeGreaterThan(before.lists);
    expect(changes().viewer.all, 'what another connection wrote is not known: everything may have changed').toBeGreaterThan(viewer);
  });
});
