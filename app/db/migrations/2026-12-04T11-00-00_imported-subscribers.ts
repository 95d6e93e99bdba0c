import type { Kysely } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A subscriber an import brought keeps where from (`imported_from`, the source: substack, ghost,
// …) and who moved the newsletter (`imported_by`), so the confirmation mail tells the move, not
// a sign-up (docs/decisions/090). Both null for an ordinary sign-up.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').addColumn('imported_from', 'text').execute();
  await db.schema.alterTable('subscribers').addColumn('imported_by', 'text', (c) => c.references('user.id').onDelete('set null')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').dropColumn('imported_by').execute();
  await db.schema.alterTable('subscribers').dropColumn('imported_from').execute();
}
