import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A writer's version (docs/decisions/093): the end of a post shows the writer's other posts
// (decision 061), and a change to one of them moved the revision of every other post of hers,
// O(her posts) per insert. Now it moves one number, hers, which her blogs' kept pages compare
// beside their own revision. The generated freshness triggers (app/db/freshness.server.ts) bump
// it; this makes the table and, on PostgreSQL, says what moved on the versions channel
// (2026-11-30T09-00-00):
// - `o <owner id> <version>`: a writer's version after its bump;
// - `b <blog id> <revision> <owner id>`: a blog's revision, now with its writer, so an instance
//   knows whose version its page follows.
// No foreign key to users: deleting an account deletes its posts, whose triggers bump the
// version of the account being deleted.
const CHANNEL = 'afterglow_versions';

/** The notice of 2026-11-30T09-00-00, with the blog's writer when `owner` is set. */
const blogsNotifyRevision = (db: Kysely<any>, owner: boolean) =>
  sql`
    create or replace function blogs_notify_revision() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify(${sql.lit(CHANNEL)}, 'd ' || old.id);
      else
        perform pg_notify(${sql.lit(CHANNEL)}, 'b ' || new.id || ' ' || new.revision${sql.raw(owner ? " || ' ' || new.owner_id" : '')});
      end if;
      return null;
    end $$`.execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('writer_versions')
    .addColumn('owner_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await blogsNotifyRevision(db, true);
  await sql`
    create function writer_versions_notify() returns trigger language plpgsql as $$
    begin
      perform pg_notify(${sql.lit(CHANNEL)}, 'o ' || new.owner_id || ' ' || new.version);
      return null;
    end $$`.execute(db);
  await sql`create trigger writer_versions_notifies after insert or update on writer_versions
    for each row execute function writer_versions_notify()`.execute(db);
}

// Going down also drops the generated triggers that bump the table (the next migration run makes
// the rules' triggers again): left, every post's insert would fail.
export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger if exists writer_versions_notifies on writer_versions`.execute(db);
    await sql`drop function if exists writer_versions_notify()`.execute(db);
    await blogsNotifyRevision(db, false);
    const { rows } = await sql<{ name: string }>`select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.proname like 'fresh\\_%' and p.prosrc like '%writer_versions%'`.execute(db);
    for (const { name } of rows) await sql`drop function if exists ${sql.id(name)}() cascade`.execute(db);
  } else {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and sql like '%writer_versions%'`.execute(db);
    for (const { name } of rows) await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
  }
  await db.schema.dropTable('writer_versions').ifExists().execute();
}
