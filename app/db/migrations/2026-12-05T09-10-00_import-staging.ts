import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// An import's scan stages what it read (docs/decisions/091): `import_staging` holds a run's posts
// and subscribers, one row each in the bundle's order (`position`: posts first, then
// subscribers), as the JSON the reader made. Each write part reads the rows from where the last
// one stopped instead of reading the archive again; the rows go when the run ends.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_staging')
    .addColumn('run_id', 'text', (c) => c.notNull().references('import_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('post', 'subscriber', 'follow')`))
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_staging_pk', ['run_id', 'position'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('import_staging').ifExists().execute();
}
