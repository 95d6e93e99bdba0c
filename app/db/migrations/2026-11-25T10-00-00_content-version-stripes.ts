import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The version counters move from one row per scope to stripes (docs/decisions/020). On
// PostgreSQL every writing transaction held its scope's single counter row from its bump to
// the end of its commit. That includes the WAL flush, so commits queued one behind another and
// likes stopped at about 350/s however many connections wrote. Now a transaction bumps stripe
// `txid % 16` of each scope it touches. It locks that stripe's rows in one fixed order, at
// commit, once per scope. Two transactions wait for each other only when they share a stripe.
// A scope's version is the sum of its stripes: every commit raises it, and a rollback raises
// nothing. SQLite has one writer and needs one stripe.
const STRIPES = 16;
const SCOPES = ['content', 'views', 'sessions'] as const;
const SQLITE_TRIGGERS: { name: string; table: string; event: string; scope: (typeof SCOPES)[number] }[] = [
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
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('content_version_stripes')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('stripe', 'integer', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('content_version_stripes_pk', ['scope', 'stripe'])
    .execute();
  // Stripe 0 carries the versions reached so far, so no version is ever seen twice.
  const stripes = pg ? STRIPES : 1;
  for (const scope of SCOPES) {
    await sql`insert into content_version_stripes (scope, stripe, version)
      select ${sql.lit(scope)}, 0, coalesce((select version from content_versions where scope = ${sql.lit(scope)}), 0)`.execute(db);
    for (let stripe = 1; stripe < stripes; stripe++) {
      await db.insertInto('content_version_stripes').values({ scope, stripe, version: 0 }).execute();
    }
  }

  if (pg) {
    // The constraint triggers of 2026-11-25T09-00-00 call this function by name; replacing its
    // body moves them to the stripes.
    await sql`
      create or replace function bump_version_at_commit() returns trigger language plpgsql as $$
      declare
        target text := tg_argv[0];
        flag text := 'afterglow.bumped_' || tg_argv[0];
        stripe_no integer := (txid_current() % ${sql.lit(STRIPES)})::integer;
      begin
        if current_setting(flag, true) = 'yes' then return null; end if;
        perform set_config(flag, 'yes', true);
        perform 1 from content_version_stripes where stripe = stripe_no order by scope for update;
        update content_version_stripes set version = version + 1 where scope = target and stripe = stripe_no;
        return null;
      end $$`.execute(db);
  } else {
    for (const t of SQLITE_TRIGGERS) {
      await sql`drop trigger if exists ${sql.raw(t.name)}`.execute(db);
      await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
        begin update content_version_stripes set version = version + 1 where scope = ${sql.lit(t.scope)} and stripe = 0; end`.execute(db);
    }
  }
  await db.schema.dropTable('content_versions').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('content_versions')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into content_versions (scope, version)
    select scope, sum(version) from content_version_stripes group by scope`.execute(db);
  if (pg) {
    await sql`
      create or replace function bump_version_at_commit() returns trigger language plpgsql as $$
      declare
        target text := tg_argv[0];
        flag text := 'afterglow.bumped_' || tg_argv[0];
      begin
        if current_setting(flag, true) = 'yes' then return null; end if;
        perform set_config(flag, 'yes', true);
        perform 1 from content_versions order by scope for update;
        update content_versions set version = version + 1 where scope = target;
        return null;
      end $$`.execute(db);
  } else {
    for (const t of SQLITE_TRIGGERS) {
      await sql`drop trigger if exists ${sql.raw(t.name)}`.execute(db);
      await sql`create trigger ${sql.raw(t.name)} after ${sql.raw(t.event)} on ${sql.raw(t.table)}
        begin update content_versions set version = version + 1 where scope = ${sql.lit(t.scope)}; end`.execute(db);
    }
  }
  await db.schema.dropTable('content_version_stripes').execute();
}
