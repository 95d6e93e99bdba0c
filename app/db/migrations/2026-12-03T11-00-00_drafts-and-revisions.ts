import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// The writer's desk (docs/decisions/070). `blog_drafts`: a post being written, kept on the server
// as it is typed; every field may be empty (the required ones are required when it is published).
// A draft is never a blog: lists, feeds, the sitemap, search and mail read `blogs` only. With
// `blog_id` it is an edit of that post, one per post. `publish_at` set: the job runner publishes
// it then. `blog_revisions`: what a published post read after each save, for its history.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';

  await db.schema
    .createTable('blog_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('blog_id', 'text', (c) => c.unique().references('blogs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.check(sql`length(title) <= 200`))
    .addColumn('category', 'text', (c) => c.check(sql`length(category) <= 100`))
    .addColumn('type', 'text', (c) => c.check(sql`length(type) <= 100`))
    .addColumn('short_description', 'text', (c) => c.check(sql`length(short_description) <= 500`))
    .addColumn('long_description', 'text', (c) => c.check(sql`length(long_description) <= 100000`))
    .addColumn('details', 'text', (c) => c.check(sql`length(details) <= 10000`))
    .addColumn('availability', 'text', (c) => c.check(sql`length(availability) <= 20`))
    .addColumn('photo', 'text', (c) => c.check(sql`length(photo) <= 2048`))
    .addColumn('photo_focus', 'text', (c) => c.check(sql`length(photo_focus) <= 20`))
    .addColumn('mail', 'text', (c) => c.check(sql`length(mail) <= 20`))
    .addColumn('publish_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blog_drafts_owner_idx').on('blog_drafts').columns(['owner_id', 'updated_at']).execute();

  await db.schema
    .createTable('blog_revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('short_description', 'text', (c) => c.notNull())
    .addColumn('long_description', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('availability', 'text', (c) => c.notNull())
    .addColumn('photo', 'text')
    .addColumn('photo_focus', 'text')
    .addColumn('mail_teaser', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blog_revisions_blog_idx').on('blog_revisions').columns(['blog_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('blog_revisions').execute();
  await db.schema.dropTable('blog_drafts').execute();
}
