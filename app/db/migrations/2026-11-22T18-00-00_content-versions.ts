import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Two counters that move whenever what anonymous readers see moves (docs/decisions/
// 019-page-cache.md). The database's own triggers bump them, so every writer (the app, the
// benchmark seeder, a restore, an operator's SQL) invalidates cached pages on every instance,
// with no call that a new write path could forget:
// - `content`: any blog or comment inserted, deleted, or changed in a column other than views
//   (likes and comment counts live on the blog row, so a like bumps it too);
// - `views`: a blog's view count changed (kept apart: every first visit counts one);
// - `sessions`: a session ended or changed, or a signed-in user's name, email or photo changed
//   (the per-instance session cache, server/context.server.ts, checks it on every request).
const BLOG_CONTENT_COLUMNS = [
  'owner_id',
  'email',
  'name',
  'title',
  'category',
  'type',
  'short_description',
  'long_description',
  'details',
  'availability',
  'photo',
  'likes',
  'comments_count',
  'created_at',
  'updated_at',
];

type Scope = 'content' | 'views' | 'sessions';
const SCOPES: Scope[] = ['content', 'views', 'sessions'];
const TRIGGERS: { name: string; table: string; event: string; scope: Scope }[] = [
  { name: 'blogs_insert_bumps_content', table: 'blogs', event: 'INSERT', scope: 'content' },
  { name: 'blogs_delete_bumps_content', table: 'blogs', event: 'DELETE', scope: 'content' },
  { name: 'blogs_update_bumps_content', table: 'blogs', event: `UPDATE OF ${BLOG_CONTENT_COLUMNS.join(', ')}`, scope: 'content' },
  { name: 'blogs_views_bump_views', table: 'blogs', event: 'UPDATE OF views', scope: 'views' },
  { name: 'comments_insert_bumps_content', table: 'comments', event: 'INSERT', scope: 'content' },
  { name: 'comments_delete_bumps_content', table: 'comments', event: 'DELETE', scope: 'content' },
  { name: 'comments_update_bumps_content', table: 'comments', event: 'UPDATE', scope: 'content' },
  // better-auth's tables (created before our migrations run) and our profiles.
  { name: 'session_delete_bumps_sessions', table: '"session"', event: 'DELETE', scope: 'sessions' },
  { name: 'session_update_bumps_sessions', table: '"session"', event: 'UPDATE', scope: 'sessions' },
  { name: 'user_delete_bumps_sessions', table: '"user"', event: 'DELETE', scope: 'sessions' },
  { name: 'user_update_bumps_sessions', table: '"user"', event: 'UPDATE OF name, email, image', scope: 'sessions' },
  { name: 'profiles_insert_bumps_sessions', table: 'profiles', event: 'INSERT', scope: 'sessions' },
  { name: 'profiles_update_bumps_sessions', table: 'profiles', event: 'UPDATE OF name, photo', scope: 'sessions' },
];

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('content_versions')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.insertInto('content_versions').values(SCOPES.map((scope) => ({ scope, version: 0 }))).execute();

  if (pg) {
    // One row update per statement, not per row: a bulk insert of 500 blogs bumps once.
    for (const scope of SCOPES) {
      await sql`
        create function ${sql.raw(`bump_${scope}_version`)}() returns trigger language plpgsql as $$
        begin
          update content_versions set version = version + 1 where scope = ${sql.lit(scope)};
          return null;
        end $$`.execute(db);
    }
    for (const t of TRIGGERS) {
      await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
        for each statement execute function ${sql.raw(`bump_${t.scope}_version`)}()`.execute(db);
    }
    return;
  }
  // SQLite has row triggers only; bumping a counter in the same transaction costs microseconds.
  for (const t of TRIGGERS) {
    await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
      begin update content_versions set version = version + 1 where scope = ${sql.lit(t.scope)}; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const t of TRIGGERS) await sql`drop trigger if exists ${sql.raw(t.name)}${sql.raw(pg ? ` on ${t.table}` : '')}`.execute(db);
  if (pg) for (const scope of SCOPES) await sql`drop function if exists ${sql.raw(`bump_${scope}_version`)}()`.execute(db);
  await db.schema.dropTable('content_versions').ifExists().execute();
}
