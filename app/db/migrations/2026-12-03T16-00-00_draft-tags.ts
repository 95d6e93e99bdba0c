import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// A draft keeps its tags as the writer typed them (one comma-separated text, as the form's
// field holds them), so a draft opened elsewhere or published by the job runner has them too
// (docs/decisions/070, 069).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blog_drafts').addColumn('tags', 'text', (c) => c.check(sql`length(tags) <= 1000`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('blog_drafts').dropColumn('tags').execute();
}
