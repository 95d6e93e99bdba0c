import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A view no longer moves any version counter (docs/decisions/024): views are buffered and
// written in batches, and a page that shows a view count may show one up to 30 s old
// (docs/decisions/024). Every first visit used to empty every cached blog page and all of /api.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await sql`drop trigger if exists blogs_views_bump_views${sql.raw(pg ? ' on blogs' : '')}`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create constraint trigger blogs_views_bump_views after update of views on blogs
      deferrable initially deferred for each row execute function bump_version_at_commit('views')`.execute(db);
    return;
  }
  await sql`create trigger blogs_views_bump_views after update of views on blogs
    begin update content_version_stripes set version = version + 1 where scope = 'views' and stripe = 0; end`.execute(db);
}
