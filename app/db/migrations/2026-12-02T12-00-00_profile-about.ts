import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A person's "about" on their profile and author page (docs/decisions/067): a short bio, a
// website and a few more links (a JSON array of addresses). The forms' schemas hold them to
// their limits; these CHECKs back that up for anything that skips the forms.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('bio', 'text', (col) => col.check(sql`length(bio) <= 600`)).execute();
  await db.schema.alterTable('profiles').addColumn('website', 'text', (col) => col.check(sql`length(website) <= 300`)).execute();
  await db.schema.alterTable('profiles').addColumn('links', 'text', (col) => col.check(sql`length(links) <= 2000`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['links', 'website', 'bio']) await db.schema.alterTable('profiles').dropColumn(column).execute();
}
