import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// An admin's site import maps each source author onto an account (docs/decisions/083):
// `import_authors` keeps which account a (source, source author id) became, and whether the
// import made that account (`new`, its owner mailed a link to set a password) or found it
// (`existing`), so importing the same site again maps the same authors onto the same accounts.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';
  await db.schema
    .createTable('import_authors')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('made', 'text', (c) => c.notNull().check(sql`made in ('new', 'existing')`))
    .addColumn('run_id', 'text', (c) => c.references('import_runs.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('import_authors_pk', ['source', 'source_id'])
    .execute();
  await db.schema.createIndex('import_authors_user_idx').on('import_authors').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_authors').ifExists().execute();
}
