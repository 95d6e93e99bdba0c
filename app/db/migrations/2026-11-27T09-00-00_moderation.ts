import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Moderation (docs/decisions/028-moderation.md):
// - user_roles: who is an admin or a moderator; everyone signed in is a writer, so writers
//   have no row.
// - moderation_log: every moderation action, who, what, when and why (actor null: the operator's
//   command line).
// - reports: one open report per reporter and target (a partial unique index), with what the
//   target showed when it was reported.
// - user_restrictions: a suspension (until a time, or for good when `until` is null) or a
//   comment ban, at most one of each per user.
// - blogs and comments get `removed_at` / `removed_reason` (hidden by a moderator); comments
//   get `edited_at`. Hiding a blog must make its cached page and the lists stale: triggers of
//   their own move its revision and the `lists` version, leaving the existing triggers alone.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'moderator')`))
    .addColumn('granted_by', 'text')
    .addColumn('granted_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('moderation_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('moderation_log_created').on('moderation_log').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('reporter_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull().check(sql`target_type in ('blog', 'comment', 'user')`))
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open').check(sql`status in ('open', 'dismissed', 'resolved')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .execute();
  await sql`create unique index reports_one_open on reports (reporter_id, target_type, target_id) where status = 'open'`.execute(db);
  await db.schema.createIndex('reports_status_created').on('reports').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('reports_target').on('reports').columns(['target_type', 'target_id']).execute();

  await db.schema
    .createTable('user_restrictions')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('suspended', 'comment_ban')`))
    .addColumn('until', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_restrictions_pk', ['user_id', 'kind'])
    .execute();

  for (const table of ['blogs', 'comments']) {
    await db.schema.alterTable(table).addColumn('removed_at', 'text').execute();
    await db.schema.alterTable(table).addColumn('removed_reason', 'text').execute();
  }
  await db.schema.alterTable('comments').addColumn('edited_at', 'text').execute();

  // Hiding or restoring a blog changes that blog's page and every list it is on: its revision and
  // the `lists` version move (the freshness rules of 2026-11-26T10-00-00, docs/decisions/024).
  // Comments need nothing more: any update of a comment already revises its blog.
  if (pg) {
    await sql`create trigger blogs_removal_revises before update of removed_at, removed_reason on blogs
      for each row execute function blogs_revise()`.execute(db);
    await sql`create constraint trigger blogs_removal_bumps_lists after update of removed_at, removed_reason on blogs
      deferrable initially deferred for each row execute function bump_version_at_commit('lists')`.execute(db);
  } else {
    await sql`create trigger blogs_removal_revises after update of removed_at, removed_reason on blogs
      begin update blogs set revision = revision + 1 where id = new.id; end`.execute(db);
    await sql`create trigger blogs_removal_bumps_lists after update of removed_at, removed_reason on blogs
      begin update content_version_stripes set version = version + 1 where scope = 'lists' and stripe = 0; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['blogs_removal_revises', 'blogs_removal_bumps_lists']) await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ' on blogs' : '')}`.execute(db);
  if (pg) await sql`set constraints all immediate`.execute(db);
  await db.schema.alterTable('comments').dropColumn('edited_at').execute();
  for (const table of ['blogs', 'comments']) {
    await db.schema.alterTable(table).dropColumn('removed_reason').execute();
    await db.schema.alterTable(table).dropColumn('removed_at').execute();
  }
  for (const table of ['user_restrictions', 'reports', 'moderation_log', 'user_roles']) await db.schema.dropTable(table).execute();
}
