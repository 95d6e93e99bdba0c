import { type Kysely, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Federation (docs/decisions/068):
// - `actor_handles`: every writer's fediverse handle (`@handle@host`), unique across the site; a
//   person keeps every handle they had (current = 1 for the one shown, 0 for old ones that still
//   resolve), so a handle once given never moves to someone else;
// - `actor_keys`: each actor's key pairs (RSA for every peer, Ed25519 where peers take it) as JWK;
//   `owner` is a user id or `site` (the site's own actor);
// - `remote_followers`: who follows an actor from another server, with the inboxes to deliver to;
// - `remote_replies`: which comment a reply from another server became (its edits and deletion
//   find it by its id there);
// - `federation_blocks`: a remote account (`account`, its actor id) or a whole server (`instance`,
//   its host) a moderator blocked: their activities are refused, their replies removed;
// - `fedify_kv`: the federation library's key-value store (caches, idempotence, circuit state);
//   `expires_at` null: kept until deleted.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('actor_handles')
    .addColumn('handle', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('current', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('actor_handles_user_idx').on('actor_handles').column('user_id').execute();
  await db.schema.createIndex('actor_handles_one_current').on('actor_handles').column('user_id').unique().where(sql.ref('current'), '=', 1).execute();

  await db.schema
    .createTable('actor_keys')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull().check(sql`algorithm in ('rsa', 'ed25519')`))
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('actor_keys_pk', ['owner', 'algorithm'])
    .execute();

  await db.schema
    .createTable('remote_followers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('local_actor', 'text', (c) => c.notNull())
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('handle', 'text', (c) => c.notNull())
    .addColumn('inbox', 'text', (c) => c.notNull())
    .addColumn('shared_inbox', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('remote_followers_one', ['local_actor', 'actor_uri'])
    .execute();

  await db.schema
    .createTable('remote_replies')
    .addColumn('uri', 'text', (c) => c.primaryKey())
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('actor_uri', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('remote_replies_comment_idx').on('remote_replies').column('comment_id').execute();

  await db.schema
    .createTable('federation_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('account', 'instance')`))
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('federation_blocks_one', ['kind', 'target'])
    .execute();

  await db.schema
    .createTable('fedify_kv')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .execute();
  await db.schema.createIndex('fedify_kv_expires_idx').on('fedify_kv').column('expires_at').where(sql.ref('expires_at'), 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['fedify_kv', 'federation_blocks', 'remote_replies', 'remote_followers', 'actor_keys', 'actor_handles']) await db.schema.dropTable(table).ifExists().execute();
}
