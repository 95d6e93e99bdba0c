import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Newsletters that are sent (docs/decisions/023-newsletter-sending.md): double opt-in and a
// delivery choice on subscribers, follows between users, and a durable send queue with one row
// per message and recipient.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const delivery = (c: any) => c.notNull().defaultTo('post').check(sql`delivery in ('post', 'digest')`);

  await db.schema.alterTable('subscribers').addColumn('confirmed_at', ts).execute();
  await db.schema.alterTable('subscribers').addColumn('delivery', 'text', delivery).execute();
  // Whoever subscribed before double opt-in existed asked for the newsletter under the rules of
  // the time: they stay subscribed rather than being silently dropped.
  await sql`update subscribers set confirmed_at = created_at`.execute(db);

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('writer_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('delivery', 'text', delivery)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'writer_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> writer_id`)
    .execute();
  await db.schema.createIndex('follows_writer_idx').on('follows').columns(['writer_id', 'delivery']).execute();

  await db.schema
    .createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('post', 'digest', 'confirm')`))
    // 'post:<blog>', 'digest:<day>', 'confirm:<subscriber>': a blog is announced once, a day's
    // digest made once, however many instances race to do it.
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('blog_id', 'text', (c) => c.references('blogs.id').onDelete('cascade'))
    .addColumn('period_start', ts)
    .addColumn('period_end', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('mail_messages_kind_idx').on('mail_messages').columns(['kind', 'created_at']).execute();

  await db.schema
    .createTable('mail_queue')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('mail_messages.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull().check(sql`stream in ('newsletter', 'follow', 'confirm')`))
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued').check(sql`status in ('queued', 'sending', 'sent', 'failed', 'bounced')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('claimed_until', ts)
    .addColumn('claimed_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint('mail_queue_once', ['message_id', 'email'])
    .execute();
  await db.schema.createIndex('mail_queue_due_idx').on('mail_queue').columns(['status', 'next_attempt_at']).execute();

  await db.schema
    .createTable('mail_bounces')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['mail_bounces', 'mail_queue', 'mail_messages', 'follows']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable('subscribers').dropColumn('delivery').execute();
  await db.schema.alterTable('subscribers').dropColumn('confirmed_at').execute();
}
