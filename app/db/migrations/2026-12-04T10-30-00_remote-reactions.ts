import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Likes and boosts from other servers (docs/decisions/080): `remote_reactions` keeps each `Like`
// or `Announce` of a federated post by its activity id (an `Undo` names that id), with the actor
// that sent it; one of each kind per actor and post. Counted beside the local likes, never in them.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remote_reactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('blog_id', 'text', (c) => c.notNull().references('blogs.id').onDelete('cascade'))
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('like', 'announce')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('remote_reactions_one', ['blog_id', 'kind', 'actor_uri'])
    .execute();
  await db.schema.createIndex('remote_reactions_actor_idx').on('remote_reactions').column('actor_uri').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_reactions').ifExists().execute();
}
