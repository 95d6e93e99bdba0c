import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// PostgreSQL only (docs/decisions/044). Each instance keeps the versions it has seen and learns of
// changes by LISTEN on one channel instead of asking the database on every kept read. What moves
// a version also says so on `afterglow_versions`; NOTIFY in a transaction is delivered at commit,
// in commit order, and a rolled-back transaction sends nothing. Payloads, space-separated:
// - `s <scope> <stripe> <version>`: a stripe of a scope's counter after its bump (the at-commit
//   bump of 2026-11-25T10-00-00, once per transaction and scope); a scope's version is the sum of
//   its stripes, so the listener keeps each stripe;
// - `b <blog id> <revision>`: a blog inserted or its revision moved (by any of the triggers of
//   2026-11-26T10-00-00 and later, or by hand); a view moves no revision and sends nothing;
// - `d <blog id>`: a blog deleted.
// SQLite has one process and reads its versions in process; it is unchanged.
const STRIPES = 16;
const CHANNEL = 'afterglow_versions';

/** The at-commit bump of 2026-11-25T10-00-00, saying what it bumped when `notify` is set. */
const bumpVersionAtCommit = (db: Kysely<any>, notify: boolean) =>
  sql`
    create or replace function bump_version_at_commit() returns trigger language plpgsql as $$
    declare
      target text := tg_argv[0];
      flag text := 'afterglow.bumped_' || tg_argv[0];
      stripe_no integer := (txid_current() % ${sql.lit(STRIPES)})::integer;
      bumped bigint;
    begin
      if current_setting(flag, true) = 'yes' then return null; end if;
      perform set_config(flag, 'yes', true);
      perform 1 from content_version_stripes where stripe = stripe_no order by scope for update;
      update content_version_stripes set version = version + 1 where scope = target and stripe = stripe_no
        returning version into bumped;
      ${sql.raw(notify ? `perform pg_notify('${CHANNEL}', 's ' || target || ' ' || stripe_no || ' ' || bumped);` : '')}
      return null;
    end $$`.execute(db);

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await bumpVersionAtCommit(db, true);
  await sql`
    create function blogs_notify_revision() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify(${sql.lit(CHANNEL)}, 'd ' || old.id);
      else
        perform pg_notify(${sql.lit(CHANNEL)}, 'b ' || new.id || ' ' || new.revision);
      end if;
      return null;
    end $$`.execute(db);
  // The condition is checked before the event is queued: the views flush's updates queue nothing.
  await sql`create trigger blogs_revision_notifies after update on blogs
    for each row when (old.revision is distinct from new.revision) execute function blogs_notify_revision()`.execute(db);
  await sql`create trigger blogs_insert_delete_notifies after insert or delete on blogs
    for each row execute function blogs_notify_revision()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const name of ['blogs_revision_notifies', 'blogs_insert_delete_notifies']) await sql`drop trigger if exists ${sql.raw(name)} on blogs`.execute(db);
  await sql`drop function if exists blogs_notify_revision()`.execute(db);
  await bumpVersionAtCommit(db, false);
}
