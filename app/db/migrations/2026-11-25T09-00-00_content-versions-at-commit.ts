import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// PostgreSQL only. The version counters of 2026-11-22T18-00-00 were bumped by statement triggers
// in the middle of each transaction, so two writers could take the counter row and a blog row
// in opposite orders: a comment (comment row → counter → blog's count) against a like (blog
// row → counter) deadlocked under load. Here the bump is a deferred constraint trigger: it runs
// at commit, after every other lock the transaction takes, once per transaction and scope, and
// it locks the counter rows in one fixed order. Nothing waits on a lock while holding a counter,
// so the counters can no longer be part of a deadlock. SQLite has one writer and keeps its
// row triggers.
const TRIGGERS: { name: string; table: string; event: string; scope: 'content' | 'views' | 'sessions' }[] = [
  { name: 'blogs_insert_bumps_content', table: 'blogs', event: 'INSERT', scope: 'content' },
  { name: 'blogs_delete_bumps_content', table: 'blogs', event: 'DELETE', scope: 'content' },
  {
    name: 'blogs_update_bumps_content',
    table: 'blogs',
    event:
      'UPDATE OF owner_id, email, name, title, category, type, short_description, long_description, details, availability, photo, likes, comments_count, created_at, updated_at',
    scope: 'content',
  },
  { name: 'blogs_views_bump_views', table: 'blogs', event: 'UPDATE OF views', scope: 'views' },
  { name: 'comments_insert_bumps_content', table: 'comments', event: 'INSERT', scope: 'content' },
  { name: 'comments_delete_bumps_content', table: 'comments', event: 'DELETE', scope: 'content' },
  { name: 'comments_update_bumps_content', table: 'comments', event: 'UPDATE', scope: 'content' },
  { name: 'session_delete_bumps_sessions', table: '"session"', event: 'DELETE', scope: 'sessions' },
  { name: 'session_update_bumps_sessions', table: '"session"', event: 'UPDATE', scope: 'sessions' },
  { name: 'user_delete_bumps_sessions', table: '"user"', event: 'DELETE', scope: 'sessions' },
  { name: 'user_update_bumps_sessions', table: '"user"', event: 'UPDATE OF name, email, image', scope: 'sessions' },
  { name: 'profiles_insert_bumps_sessions', table: 'profiles', event: 'INSERT', scope: 'sessions' },
  { name: 'profiles_update_bumps_sessions', table: 'profiles', event: 'UPDATE OF name, photo', scope: 'sessions' },
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`
    create function bump_version_at_commit() returns trigger language plpgsql as $$
    declare
      target text := tg_argv[0];
      flag text := 'afterglow.bumped_' || tg_argv[0];
    begin
      -- Once per transaction and scope: the flag is transaction-local.
      if current_setting(flag, true) = 'yes' then return null; end if;
      perform set_config(flag, 'yes', true);
      -- Every counter row, always in the same order, before changing one.
      perform 1 from content_versions order by scope for update;
      update content_versions set version = version + 1 where scope = target;
      return null;
    end $$`.execute(db);
  for (const t of TRIGGERS) {
    await sql`drop trigger if exists ${sql.raw(t.name)} on ${sql.raw(t.table)}`.execute(db);
    await sql`create constraint trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
      deferrable initially deferred for each row execute function bump_version_at_commit(${sql.lit(t.scope)})`.execute(db);
  }
  for (const scope of ['content', 'views', 'sessions']) await sql`drop function if exists ${sql.raw(`bump_${scope}_version`)}()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const scope of ['content', 'views', 'sessions']) {
    await sql`
      create function ${sql.raw(`bump_${scope}_version`)}() returns trigger language plpgsql as $$
      begin
        update content_versions set version = version + 1 where scope = ${sql.lit(scope)};
        return null;
      end $$`.execute(db);
  }
  for (const t of TRIGGERS) {
    await sql`drop trigger if exists ${sql.raw(t.name)} on ${sql.raw(t.table)}`.execute(db);
    await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
      for each statement execute function ${sql.raw(`bump_${t.scope}_version`)}()`.execute(db);
  }
  await sql`drop function if exists bump_version_at_commit()`.execute(db);
}
