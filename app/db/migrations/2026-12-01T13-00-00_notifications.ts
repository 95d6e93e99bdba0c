import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Frozen once landed: never import app code here, never edit; add a new migration instead.
//
// Notifications (docs/decisions/062-notifications.md): one row per recipient and group (a post's
// likes, a comment's replies, new followers…), the distinct people behind it, and each member's
// choice of mail per kind. The mail queue learns two more kinds of message (one notification at
// once, a day's notifications in a digest) and one more stream; a message may name the
// notification it tells of.
//
// No freshness trigger on these tables: no page kept for several viewers shows a notification,
// so none of them must empty a page cache.
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ts = pg ? 'timestamptz' : 'text';
  const now = pg ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
  const kinds = sql`kind in ('comment', 'reply', 'like_post', 'like_comment', 'follow', 'moderation')`;

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(kinds))
    // One row per recipient and group: 'like_post:<blog>', 'reply:<comment>', 'follow', … A new
    // member of a read group makes it unread again and moves it to the top.
    .addColumn('group_key', 'text', (c) => c.notNull())
    .addColumn('blog_id', 'text', (c) => c.references('blogs.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('user.id').onDelete('set null'))
    .addColumn('actor_count', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('detail', 'text')
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('updated_at', ts, (c) => c.notNull().defaultTo(now))
    .addColumn('read_at', ts)
    .addUniqueConstraint('notifications_group_once', ['recipient_id', 'group_key'])
    .execute();
  await db.schema.createIndex('notifications_recipient_idx').on('notifications').columns(['recipient_id', 'updated_at']).execute();
  await db.schema.createIndex('notifications_updated_idx').on('notifications').column('updated_at').execute();

  await db.schema
    .createTable('notification_actors')
    .addColumn('notification_id', 'text', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('notification_actors_pk', ['notification_id', 'actor_id'])
    .execute();

  await db.schema
    .createTable('notification_settings')
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(kinds))
    .addColumn('delivery', 'text', (c) => c.notNull().check(sql`delivery in ('instant', 'digest', 'off')`))
    .addPrimaryKeyConstraint('notification_settings_pk', ['user_id', 'kind'])
    .execute();

  const messageKinds = sql`kind in ('post', 'digest', 'confirm', 'notice', 'notice_digest')`;
  const streams = sql`stream in ('newsletter', 'follow', 'confirm', 'notice')`;
  if (pg) {
    await sql`alter table mail_messages drop constraint mail_messages_kind_check`.execute(db);
    await sql`alter table mail_messages add constraint mail_messages_kind_check check (${messageKinds})`.execute(db);
    await sql`alter table mail_queue drop constraint mail_queue_stream_check`.execute(db);
    await sql`alter table mail_queue add constraint mail_queue_stream_check check (${streams})`.execute(db);
    await db.schema.alterTable('mail_messages').addColumn('notification_id', 'text', (c) => c.references('notifications.id').onDelete('cascade')).execute();
    return;
  }
  // SQLite keeps a CHECK in the table's definition: the two mail tables are made again with the
  // wider ones. The queue goes first (it points at the messages), so nothing cascades, and in one
  // transaction so a failure leaves the old tables as they were.
  await db.transaction().execute(async (trx) => {
    await sql`create table mail_messages_next (
      id text primary key,
      kind text not null check (${messageKinds}),
      key text not null unique,
      blog_id text references blogs(id) on delete cascade,
      period_start text,
      period_end text,
      created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      notification_id text references notifications(id) on delete cascade
    )`.execute(trx);
    await sql`insert into mail_messages_next (id, kind, key, blog_id, period_start, period_end, created_at)
      select id, kind, key, blog_id, period_start, period_end, created_at from mail_messages`.execute(trx);
    await sql`create table mail_queue_next (
      id text primary key,
      message_id text not null references mail_messages_next(id) on delete cascade,
      email text not null,
      stream text not null check (${streams}),
      ref text not null,
      status text not null default 'queued' check (status in ('queued', 'sending', 'sent', 'failed', 'bounced')),
      attempts integer not null default 0,
      next_attempt_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      claimed_until text,
      claimed_by text,
      last_error text,
      sent_at text,
      created_at text not null default (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
      constraint mail_queue_once unique (message_id, email)
    )`.execute(trx);
    await sql`insert into mail_queue_next select id, message_id, email, stream, ref, status, attempts, next_attempt_at, claimed_until, claimed_by, last_error, sent_at, created_at from mail_queue`.execute(trx);
    await sql`drop table mail_queue`.execute(trx);
    await sql`drop table mail_messages`.execute(trx);
    // Renaming updates mail_queue_next's reference to the messages' new name.
    await sql`alter table mail_messages_next rename to mail_messages`.execute(trx);
    await sql`alter table mail_queue_next rename to mail_queue`.execute(trx);
    await sql`create index mail_messages_kind_idx on mail_messages (kind, created_at)`.execute(trx);
    await sql`create index mail_queue_due_idx on mail_queue (status, next_attempt_at)`.execute(trx);
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('mail_messages').where('kind', 'in', ['notice', 'notice_digest']).execute();
  await db.schema.alterTable('mail_messages').dropColumn('notification_id').execute();
  for (const table of ['notification_settings', 'notification_actors', 'notifications']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
