import type { Kysely } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Indexes that serve the hot reads in their exact order (the plans are checked by
// app/db/query-plans.test.ts): the featured order down to its last tie-breaker, and a viewer's
// own Hidden blogs, the second half of every signed-in list.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_featured_idx').execute();
  await db.schema
    .createIndex('blogs_featured_idx')
    .on('blogs')
    .columns(['availability', 'likes desc', 'views desc', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .createIndex('blogs_owner_visibility_idx')
    .on('blogs')
    .columns(['owner_id', 'availability', 'category', 'created_at desc', 'id desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('blogs_owner_visibility_idx').execute();
  await db.schema.dropIndex('blogs_featured_idx').execute();
  await db.schema
    .createIndex('blogs_featured_idx')
    .on('blogs')
    .columns(['availability', 'likes desc', 'views desc', 'created_at desc'])
    .execute();
}
