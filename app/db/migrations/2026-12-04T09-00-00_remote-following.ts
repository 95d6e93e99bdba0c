import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Following accounts on other servers from here (docs/decisions/081):
// - `remote_follows`: a reader here follows a remote account (a `remote_actors` row); `state` is
//   `pending` until the account's server accepts the Follow (`follow_uri`, the activity's id);
// - `remote_posts`: the public top-level posts of accounts someone here follows, kept for a while
//   (the newest per account, for a number of days), their HTML sanitised on arrival;
// - `remote_post_replies`: a reader's reply to one of those posts, sent from their own actor as a
//   Note (`/ap/notes/<id>` answers for it).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('remote_follows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('follower_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('remote_actor_id', 'text', (c) => c.notNull().references('remote_actors.id').onDelete('cascade'))
    .addColumn('inbox', 'text', (c) => c.notNull())
    .addColumn('shared_inbox', 'text')
    .addColumn('follow_uri', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'accepted')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('accepted_at', 'text')
    .addUniqueConstraint('remote_follows_one', ['follower_id', 'remote_actor_id'])
    .execute();
  await db.schema.createIndex('remote_follows_actor_idx').on('remote_follows').column('remote_actor_id').execute();

  await db.schema
    .createTable('remote_posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('uri', 'text', (c) => c.notNull().unique())
    .addColumn('remote_actor_id', 'text', (c) => c.notNull().references('remote_actors.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('Article', 'Note')`))
    .addColumn('title', 'text')
    .addColumn('summary', 'text')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('published_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remote_posts_actor_published_idx').on('remote_posts').columns(['remote_actor_id', 'published_at']).execute();
  await db.schema.createIndex('remote_posts_published_idx').on('remote_posts').column('published_at').execute();

  await db.schema
    .createTable('remote_post_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('remote_post_id', 'text', (c) => c.notNull().references('remote_posts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('reply_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remote_post_replies_post_idx').on('remote_post_replies').columns(['remote_post_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('remote_post_replies').execute();
  await db.schema.dropTable('remote_posts').execute();
  await db.schema.dropTable('remote_follows').execute();
}
