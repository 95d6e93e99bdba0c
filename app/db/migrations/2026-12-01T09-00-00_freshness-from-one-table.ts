import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The freshness triggers stop being written by hand, migration by migration (docs/decisions/055).
// They are generated from one table of rules (app/db/freshness.ts) and made, after every migration
// run, by the step that keeps the database's `fresh_…` triggers equal to those rules. This
// migration drops the hand-written ones of 2026-11-22T18-00-00 to 2026-11-29T09-00-00 and the
// functions only they called; the striped at-commit bump (`bump_version_at_commit`) and the
// PostgreSQL notify triggers of 2026-11-30T09-00-00 stay. Going down drops the generated ones and
// makes the hand-written ones again, as 2026-11-29T09-00-00 left them.
type Action = { scope: 'lists' | 'sessions' } | { revise: 'self' } | { revise: 'comment' } | { revise: 'person'; column: string };
const LISTED =
  'owner_id, title, category, type, short_description, long_description, details, availability, photo, created_at, updated_at';
const PERSON = 'update blogs set revision = revision + 1 where owner_id = new.@ or id in (select blog_id from comments where user_id = new.@)';
/** The hand-written triggers as 2026-11-29T09-00-00 left them: name, table, event, what it did. */
const HAND_WRITTEN: [name: string, table: string, event: string, action: Action][] = [
  ['blogs_update_revises', 'blogs', `UPDATE OF ${LISTED.replace('photo,', 'photo, likes, comments_count,')}`, { revise: 'self' }],
  ['blogs_removal_revises', 'blogs', 'UPDATE OF removed_at, removed_reason', { revise: 'self' }],
  ['blogs_hold_revises', 'blogs', 'UPDATE OF held_until, pending_since', { revise: 'self' }],
  ['blogs_focus_revises', 'blogs', 'UPDATE OF photo_focus, photo_focus_x, photo_focus_y', { revise: 'self' }],
  ['blogs_insert_bumps_lists', 'blogs', 'INSERT', { scope: 'lists' }],
  ['blogs_delete_bumps_lists', 'blogs', 'DELETE', { scope: 'lists' }],
  ['blogs_update_bumps_lists', 'blogs', `UPDATE OF ${LISTED}`, { scope: 'lists' }],
  ['blogs_removal_bumps_lists', 'blogs', 'UPDATE OF removed_at, removed_reason', { scope: 'lists' }],
  ['blogs_hold_bumps_lists', 'blogs', 'UPDATE OF held_until, pending_since', { scope: 'lists' }],
  ['blogs_focus_bumps_lists', 'blogs', 'UPDATE OF photo_focus, photo_focus_x, photo_focus_y', { scope: 'lists' }],
  ['comments_revise_blog', 'comments', 'INSERT OR UPDATE OR DELETE', { revise: 'comment' }],
  ['user_update_revises_blogs', '"user"', 'UPDATE OF name, image', { revise: 'person', column: 'id' }],
  ['profiles_insert_revises_blogs', 'profiles', 'INSERT', { revise: 'person', column: 'user_id' }],
  ['profiles_update_revises_blogs', 'profiles', 'UPDATE OF name, photo', { revise: 'person', column: 'user_id' }],
  ['user_update_bumps_lists', '"user"', 'UPDATE OF name, image', { scope: 'lists' }],
  ['profiles_insert_bumps_lists', 'profiles', 'INSERT', { scope: 'lists' }],
  ['profiles_update_bumps_lists', 'profiles', 'UPDATE OF name, photo', { scope: 'lists' }],
  ['session_delete_bumps_sessions', '"session"', 'DELETE', { scope: 'sessions' }],
  ['session_update_bumps_sessions', '"session"', 'UPDATE', { scope: 'sessions' }],
  ['user_delete_bumps_sessions', '"user"', 'DELETE', { scope: 'sessions' }],
  ['user_update_bumps_sessions', '"user"', 'UPDATE OF name, email, image', { scope: 'sessions' }],
  ['profiles_insert_bumps_sessions', 'profiles', 'INSERT', { scope: 'sessions' }],
  ['profiles_update_bumps_sessions', 'profiles', 'UPDATE OF name, photo', { scope: 'sessions' }],
];
/** SQLite wrote the comment trigger once per event. */
const SQLITE_COMMENT_TRIGGERS: [name: string, event: string, row: string][] = [
  ['comments_insert_revises_blog', 'INSERT', 'new'],
  ['comments_update_revises_blog', 'UPDATE', 'new'],
  ['comments_delete_revises_blog', 'DELETE', 'old'],
];
const PG_FUNCTIONS = ['blogs_revise', 'comments_revise_blog', 'person_revises_blogs'];

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  for (const [name, table] of HAND_WRITTEN) await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ` on ${table}` : '')}`.execute(db);
  if (pg) for (const fn of PG_FUNCTIONS) await sql`drop function if exists ${sql.raw(fn)}()`.execute(db);
  else for (const [name] of SQLITE_COMMENT_TRIGGERS) await sql`drop trigger if exists ${sql.raw(name)}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // The generated triggers and functions, whatever the rules said when they were made.
  if (pg) {
    await sql`set constraints all immediate`.execute(db);
    const { rows } = await sql<{ name: string; table: string }>`select t.tgname as name, c.relname as "table" from pg_trigger t
      join pg_class c on c.oid = t.tgrelid where t.tgname like 'fresh\\_%' and not t.tgisinternal`.execute(db);
    for (const t of rows) await sql`drop trigger if exists ${sql.raw(t.name)} on ${sql.raw(`"${t.table}"`)}`.execute(db);
    const functions = await sql<{ name: string }>`select proname as name from pg_proc where proname like 'fresh\\_%'`.execute(db);
    for (const f of functions.rows) await sql`drop function if exists ${sql.raw(f.name)}()`.execute(db);
  } else {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and name like 'fresh\\_%' escape '\\'`.execute(db);
    for (const t of rows) await sql`drop trigger if exists ${sql.raw(t.name)}`.execute(db);
  }

  if (pg) {
    await sql`create function blogs_revise() returns trigger language plpgsql as $$
      begin new.revision := old.revision + 1; return new; end $$`.execute(db);
    await sql`create function comments_revise_blog() returns trigger language plpgsql as $$
      begin
        update blogs set revision = revision + 1 where id = (case when tg_op = 'DELETE' then old.blog_id else new.blog_id end);
        return null;
      end $$`.execute(db);
    await sql`create function person_revises_blogs() returns trigger language plpgsql as $$
      declare person text := to_jsonb(new) ->> tg_argv[0];
      begin ${sql.raw(PERSON.replaceAll('new.@', 'person'))}; return null; end $$`.execute(db);
  }
  for (const [name, table, event, action] of HAND_WRITTEN) {
    if (!pg && 'revise' in action && action.revise === 'comment') continue;
    let body: string;
    if ('scope' in action) {
      body = pg
        ? `constraint trigger ${name} after ${event} on ${table} deferrable initially deferred for each row execute function bump_version_at_commit('${action.scope}')`
        : `trigger ${name} after ${event} on ${table} begin update content_version_stripes set version = version + 1 where scope = '${action.scope}' and stripe = 0; end`;
    } else if (action.revise === 'self') {
      body = pg
        ? `trigger ${name} before ${event} on ${table} for each row execute function blogs_revise()`
        : `trigger ${name} after ${event} on ${table} begin update blogs set revision = revision + 1 where id = new.id; end`;
    } else if (action.revise === 'comment') {
      body = `trigger ${name} after ${event} on ${table} for each row execute function comments_revise_blog()`;
    } else {
      body = pg
        ? `trigger ${name} after ${event} on ${table} for each row execute function person_revises_blogs('${action.column}')`
        : `trigger ${name} after ${event} on ${table} begin ${PERSON.replaceAll('@', action.column)}; end`;
    }
    await sql.raw(`create ${body}`).execute(db);
  }
  if (!pg) {
    for (const [name, event, row] of SQLITE_COMMENT_TRIGGERS) {
      await sql.raw(`create trigger ${name} after ${event} on comments begin update blogs set revision = revision + 1 where id = ${row}.blog_id; end`).execute(db);
    }
  }
}
