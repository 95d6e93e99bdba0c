import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Importing from other platforms (docs/decisions/072):
// - `import_runs`: one import, its owner (the writer, or the admin importing a site), where it
//   stands (`scanning` the archive, `review` of the category mapping, `queued`, `running`, `done`,
//   `failed`), its progress (`done_items` of `total_items`) and its report (JSON: the mapping
//   shown, then what came, what was skipped and why), polled by the import screens;
// - `import_items`: what each source item became, by (source, kind, source id): importing the same
//   archive twice finds every item here and changes nothing; images are kept by content hash;
// - `legacy_paths`: the old site's paths of an imported post, answered with a 301 to its page.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';

  await db.schema
    .createTable('import_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_path', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('scanning').check(sql`status in ('scanning', 'review', 'queued', 'running', 'done', 'failed')`))
    .addColumn('source', 'text')
    .addColumn('total_items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('done_items', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .execute();
  await db.schema.createIndex('import_runs_owner_idx').on('import_runs').columns(['owner_id', 'created_at']).execute();

  await db.schema
    .createTable('import_items')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('post', 'comment', 'image', 'subscriber')`))
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text', (c) => c.references('import_runs.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('import_items_pk', ['source', 'kind', 'source_id'])
    .execute();

  await db.schema
    .createTable('legacy_paths')
    .addColumn('path', 'text', (c) => c.primaryKey().check(sql`length(path) between 1 and 2048`))
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('legacy_paths_blog_idx').on('legacy_paths').column('blog_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['legacy_paths', 'import_items', 'import_runs']) await db.schema.dropTable(table).ifExists().execute();
}
