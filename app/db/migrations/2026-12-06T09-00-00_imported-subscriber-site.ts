import type { Kysely } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A subscriber an admin's whole-site import brought keeps the old site's name (`imported_site`,
// its title in the archive, or its host; empty when the archive names neither), so the
// confirmation mail says that site moved its newsletter, not the admin who clicked import
// (docs/decisions/095). Null for a writer's own import and for a sign-up.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').addColumn('imported_site', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscribers').dropColumn('imported_site').execute();
}
