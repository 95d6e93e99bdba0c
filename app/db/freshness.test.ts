import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { FRESHNESS, ROWS, blog, ownRevision, scope, updateOf } from './freshness';
import { freshnessDdl, syncFreshness } from './freshness.server';
import { migrateToLatest } from './migrate.server';

const modules = import.meta.glob<Migration>('./migrations/*.ts', { eager: true });
const migrations = Object.fromEntries(Object.entries(modules).map(([path, module]) => [path.replace(/^.*\//, '').replace(/\.ts$/, ''), module]));
const GENERATED = '2026-12-01T09-00-00_freshness-from-one-table';
const BEFORE = Object.keys(migrations).sort().filter((name) => name < GENERATED).at(-1)!;
/** Triggers that are not about freshness: search indexes, the account limits on SQLite, PostgreSQL's version notices. */
const OTHER_TRIGGERS = {
  sqlite: ['blogs_fts_delete', 'blogs_fts_insert', 'blogs_fts_update', 'user_limits_insert', 'user_limits_update'],
  postgres: ['blogs_insert_delete_notifies', 'blogs_revision_notifies', 'blogs_search_vector_trg', 'writer_versions_notifies'],
};

/** Every trigger and function of the database, as the database itself reports them. */
async function catalog(db: Kysely<any>, dialect: 'sqlite' | 'postgres') {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; sql: string }>`select name, sql from sqlite_master where type = 'trigger' order by name`.execute(db);
    return { triggers: rows.map((r) => [r.name, r.sql]), functions: [] };
  }
  const { rows } = await sql<{ name: string; def: string; note: string | null }>`
    select t.tgname as name, pg_get_triggerdef(t.oid) as def, obj_description(t.oid, 'pg_trigger') as note from pg_trigger t
    join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where not t.tgisinternal and n.nspname = current_schema() order by t.tgname`.execute(db);
  const functions = await sql<{ name: string; src: string; note: string | null }>`
    select p.proname as name, p.prosrc as src, obj_description(p.oid, 'pg_proc') as note from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace where n.nspname = current_schema() order by p.proname`.execute(db);
  return { triggers: rows.map((r) => [r.name, r.def, r.note]), functions: functions.rows.map((r) => [r.name, r.src, r.note]) };
}

describeOnDialects('freshness triggers from one table on %s', (t, dialect) => {
  let db: Kysely<any>;
  let writer: string;
  beforeAll(async () => {
    db = t.deps.database.db as Kysely<any>;
    writer = (await t.createUser({ name: 'Writer' })).user.id;
  });
  const newBlog = async (id: string) => {
    const now = new Date().toISOString();
    await db.insertInto('blogs').values({
      id, owner_id: writer, title: 'T', category: 'Personal', type: 'Video', short_description: 's', long_description: 'l',
      details: null, availability: 'Public', photo: null, created_at: now, updated_at: now,
    }).execute();
  };
  const revision = async (id: string) => Number((await db.selectFrom('blogs').select('revision').where('id', '=', id).executeTakeFirstOrThrow()).revision);
  const lists = async () => Number((await db.selectFrom('content_version_stripes').select((eb) => eb.fn.sum('version').as('v')).where('scope', '=', 'lists').executeTakeFirstOrThrow()).v);

  it('holds exactly the generated freshness triggers, and no hand-written one', async () => {
    const ddl = freshnessDdl(dialect);
    const names = (await catalog(db, dialect)).triggers.map(([name]) => name!);
    expect(names.filter((name) => name.startsWith('fresh_')).sort()).toEqual(ddl.triggers.map((trigger) => trigger.name).sort());
    // `viewer_w_`: made by viewer-writes.server.ts (its own test).
    expect(names.filter((name) => !name.startsWith('fresh_') && !name.startsWith('viewer_w_')).sort()).toEqual(OTHER_TRIGGERS[dialect]);
    // Already in line: a second start changes nothing.
    expect(await syncFreshness(db)).toBe(false);
  });

  it('ends an upgraded database with the same triggers and functions as a fresh one', async () => {
    const fresh = await catalog(db, dialect);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const before = await catalog(db, dialect);
    expect(before.triggers.map(([name]) => name)).toContain('blogs_update_revises');
    expect(before.triggers.some(([name]) => name!.startsWith('fresh_'))).toBe(false);
    // The hand-written triggers at work on the old schema, with data that carries over.
    await newBlog('upgraded');
    await db.updateTable('blogs').set({ title: 'Moved' }).where('id', '=', 'upgraded').execute();
    expect(await revision('upgraded')).toBe(1);

    const report = await migrateToLatest(db);
    expect(report).toEqual({ applied: Object.keys(migrations).sort().filter((name) => name >= GENERATED), freshnessRebuilt: true });
    expect(await catalog(db, dialect)).toEqual(fresh);
    await db.updateTable('blogs').set({ title: 'Moved again' }).where('id', '=', 'upgraded').execute();
    expect(await revision('upgraded')).toBe(2);
  });

  it('needs one rule for a new table whose rows show on a blog page, and one for a new column', async () => {
    await newBlog('probed');
    await sql`create table freshness_probes (id text primary key, blog_id text not null)`.execute(db);
    await sql`alter table blogs add column subtitle text`.execute(db);
    const rules = [
      ...FRESHNESS,
      { table: 'freshness_probes', on: ROWS, stale: [blog('blog_id')] },
      { table: 'blogs', on: updateOf('subtitle'), stale: [ownRevision, scope('lists')] },
    ];
    expect(await syncFreshness(db, rules)).toBe(true);
    expect(await syncFreshness(db, rules)).toBe(false);

    const start = { revision: await revision('probed'), lists: await lists() };
    await db.insertInto('freshness_probes').values({ id: 'p1', blog_id: 'probed' }).execute();
    expect(await revision('probed')).toBe(start.revision + 1);
    expect(await lists()).toBe(start.lists);
    await db.updateTable('blogs').set({ subtitle: 'Now with a subtitle' }).where('id', '=', 'probed').execute();
    expect(await revision('probed')).toBe(start.revision + 2);
    expect(await lists()).toBeGreaterThan(start.lists);
    await db.deleteFrom('freshness_probes').execute();
    expect(await revision('probed')).toBe(start.revision + 3);

    // Taking the rules out takes their triggers out.
    expect(await syncFreshness(db)).toBe(true);
    await db.insertInto('freshness_probes').values({ id: 'p2', blog_id: 'probed' }).execute();
    expect(await revision('probed')).toBe(start.revision + 3);
    await sql`drop table freshness_probes`.execute(db);
  });

  it("moves the writer's one version on her post's insert, delete and post-end change, and writes no other blog (decision 093)", async () => {
    const writerVersion = async (owner = writer) =>
      Number((await db.selectFrom('writer_versions').select('version').where('owner_id', '=', owner).executeTakeFirst())?.version ?? 0);
    await newBlog('hers-1');
    const before = { version: await writerVersion(), revision: await revision('hers-1') };
    await newBlog('hers-2');
    expect(await writerVersion()).toBe(before.version + 1);
    await db.updateTable('blogs').set({ title: 'Retitled' }).where('id', '=', 'hers-2').execute();
    expect(await writerVersion()).toBe(before.version + 2);
    // A like count, a view or a column the end of a post does not show moves nothing of hers.
    await db.updateTable('blogs').set({ likes: 3, views: 7, details: 'more' }).where('id', '=', 'hers-2').execute();
    expect(await writerVersion()).toBe(before.version + 2);
    // Handed to another writer: both versions move.
    const other = (await t.createUser({ name: 'Other writer' })).user.id;
    const otherBefore = await writerVersion(other);
    await db.updateTable('blogs').set({ owner_id: other }).where('id', '=', 'hers-2').execute();
    expect(await writerVersion()).toBe(before.version + 3);
    expect(await writerVersion(other)).toBe(otherBefore + 1);
    // Her account going takes her posts with it: their deletes bump the version of an account
    // already gone, which no foreign key refuses.
    await db.deleteFrom('user').where('id', '=', other).execute();
    expect(await db.selectFrom('blogs').select('id').where('id', '=', 'hers-2').executeTakeFirst()).toBeUndefined();
    expect(await writerVersion(other)).toBe(otherBefore + 2);
    // Her other post's row was never written: its revision is where it was.
    expect(await revision('hers-1')).toBe(before.revision);
  });

  it('refuses a rule that would let a blog revise itself or count views', () => {
    expect(() => freshnessDdl(dialect, [{ table: 'blogs', on: updateOf('views'), stale: [ownRevision] }])).toThrow(/never `revision` or `views`/);
    expect(() => freshnessDdl(dialect, [{ table: 'blogs', on: { update: true }, stale: [scope('lists')] }])).toThrow(/name its columns/);
    expect(() => freshnessDdl(dialect, [{ table: 'comments', on: ROWS, stale: [ownRevision] }])).toThrow(/updates of blogs/);
  });
});
