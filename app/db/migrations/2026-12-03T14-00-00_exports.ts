import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Exports (docs/decisions/074): one row per zip a person asked for, made by a background job into
// DATA_DIR/exports/, downloadable by its owner through a signed link until `expires_at`, then
// swept. `scope` says what it holds: the writer's own things, or (an admin's) the whole site.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';

  await db.schema
    .createTable('exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull().check(sql`scope in ('writer', 'site')`))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending').check(sql`status in ('pending', 'ready', 'failed')`))
    .addColumn('size_bytes', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('finished_at', ts)
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('mailed_at', ts)
    .execute();
  await db.schema.createIndex('exports_user_idx').on('exports').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('exports_expires_idx').on('exports').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('exports').ifExists().execute();
}
