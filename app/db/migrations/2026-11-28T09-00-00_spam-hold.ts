import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The spam hold for new accounts (docs/decisions/029-spam-hold.md):
// - account_approvals: a moderator approved the account; its hold ends before its N days.
// - blogs.held_until: the blog was written while its author was held, and stays out of the
//   sitemap, feeds, featured and the newsletter (and carries noindex) until then. Cleared by an
//   approval or, once the time has passed, by the release job: a data change, so the caches see it.
// - blogs.pending_since / comments.pending_since: more than K links from a held account; shown
//   only to its author until a moderator approves it.
// Both blog columns change what the blog's page and the lists show: triggers of their own move
// the blog's revision and the `lists` version, leaving the existing triggers alone (decision 024).
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('account_approvals')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
    .addColumn('approved_by', 'text')
    .addColumn('approved_at', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('blogs').addColumn('held_until', 'text').execute();
  await db.schema.alterTable('blogs').addColumn('pending_since', 'text').execute();
  await db.schema.alterTable('comments').addColumn('pending_since', 'text').execute();
  await sql`create index blogs_held_until on blogs (held_until) where held_until is not null`.execute(db);
  await sql`create index blogs_pending on blogs (pending_since) where pending_since is not null`.execute(db);
  await sql`create index comments_pending on comments (pending_since) where pending_since is not null`.execute(db);

  // Comments need nothing more: any update of a comment already revises its blog.
  if (pg) {
    await sql`create trigger blogs_hold_revises before update of held_until, pending_since on blogs
      for each row execute function blogs_revise()`.execute(db);
    await sql`create constraint trigger blogs_hold_bumps_lists after update of held_until, pending_since on blogs
      deferrable initially deferred for each row execute function bump_version_at_commit('lists')`.execute(db);
  } else {
    await sql`create trigger blogs_hold_revises after update of held_until, pending_since on blogs
      begin update blogs set revision = revision + 1 where id = new.id; end`.execute(db);
    await sql`create trigger blogs_hold_bumps_lists after update of held_until, pending_since on blogs
      begin update content_version_stripes set version = version + 1 where scope = 'lists' and stripe = 0; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['blogs_hold_revises', 'blogs_hold_bumps_lists']) await sql`drop trigger if exists ${sql.raw(name)}${sql.raw(pg ? ' on blogs' : '')}`.execute(db);
  if (pg) await sql`set constraints all immediate`.execute(db);
  for (const name of ['blogs_held_until', 'blogs_pending', 'comments_pending']) await sql`drop index if exists ${sql.raw(name)}`.execute(db);
  await db.schema.alterTable('comments').dropColumn('pending_since').execute();
  await db.schema.alterTable('blogs').dropColumn('pending_since').execute();
  await db.schema.alterTable('blogs').dropColumn('held_until').execute();
  await db.schema.dropTable('account_approvals').execute();
}
