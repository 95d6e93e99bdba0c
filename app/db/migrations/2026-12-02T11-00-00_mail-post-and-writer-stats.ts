import type { Kysely } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The whole post by mail and a writer's own numbers (docs/decisions/066):
// - blogs.mail_teaser: 1 when the writer chose to mail a teaser card instead of the whole post;
//   0 (the default) mails the post itself. Not shown on any page, so no freshness rule.
// - blog_views_daily: a blog's views per UTC day, added to by the view counter's batch flush
//   (one upsert per blog and flush, never one write per view). Only its writer sees it.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blogs').addColumn('mail_teaser', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema
    .createTable('blog_views_daily')
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('views', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('blog_views_daily_pk', ['blog_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blog_views_daily').execute();
  await db.schema.alterTable('blogs').dropColumn('mail_teaser').execute();
}
