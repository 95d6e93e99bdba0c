import { type Kysely, sql } from 'kysely';
import { claimLeased, type LeasedQueue, releaseLeased, shownName } from '~/db/shared-sql.server';
import type { Database, DialectName, MailKind, MailQueueTable, MailStream } from '~/db/schema';

type Db = Kysely<Database>;

/** A random row id made by the database itself, so one INSERT … SELECT queues every recipient. */
const randomId = (dialect: DialectName) =>
  dialect === 'postgres' ? sql<string>`replace(gen_random_uuid()::text, '-', '')` : sql<string>`lower(hex(randomblob(16)))`;

/** Inserts the message unless its key exists: false means it was made before (once per blog or day). */
export async function insertMessage(
  db: Db,
  row: { id: string; kind: MailKind; key: string; blog_id?: string | null; period_start?: string | null; period_end?: string | null; notification_id?: string | null; created_at: string },
): Promise<boolean> {
  const result = await db.insertInto('mail_messages').values(row).onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertQueueRow(db: Db, row: { id: string; message_id: string; email: string; stream: MailStream; ref: string; now: string }): Promise<void> {
  const { now, ...rest } = row;
  await db
    .insertInto('mail_queue')
    .values({ ...rest, next_attempt_at: now, created_at: now })
    .onConflict((oc) => oc.columns(['message_id', 'email']).doNothing())
    .execute();
}

/** A timestamp in a SELECT list: PostgreSQL would take an untyped parameter there for text. */
const at = (dialect: DialectName, iso: string) => (dialect === 'postgres' ? sql`${iso}::timestamptz` : sql`${iso}`);

const notBounced = sql<boolean>`not exists (select 1 from mail_bounces b where b.email = lower(e.email))`;

/**
 * Queues a message for newsletter subscribers with this delivery who had confirmed by `now` (the
 * moment the post was published, or the digest made: the announcement may be queued a little
 * later, and one who confirmed since did not ask for it), except `exceptEmail` (the writer) and
 * bounced addresses. One row per address: a reader who also follows the writer gets it once.
 */
export async function queueForSubscribers(db: Db, dialect: DialectName, q: { messageId: string; delivery: 'post' | 'digest'; exceptEmail: string; now: string }): Promise<number> {
  const result = await sql`
    insert into mail_queue (id, message_id, email, stream, ref, next_attempt_at, created_at)
    select ${randomId(dialect)}, ${q.messageId}, e.email, 'newsletter', e.id, ${at(dialect, q.now)}, ${at(dialect, q.now)}
    from subscribers e
    where e.confirmed_at <= ${at(dialect, q.now)} and e.delivery = ${q.delivery} and e.email <> ${q.exceptEmail} and ${notBounced}
    on conflict (message_id, email) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Queues a message for the followers of `writerIds` who chose this delivery and followed by `now`. */
export async function queueForFollowers(
  db: Db,
  dialect: DialectName,
  q: { messageId: string; delivery: 'post' | 'digest'; writerIds: string[]; now: string; refPerWriter: boolean },
): Promise<number> {
  if (q.writerIds.length === 0) return 0;
  const ref = q.refPerWriter ? sql`f.follower_id || ':' || f.writer_id` : sql`f.follower_id`;
  const result = await sql`
    insert into mail_queue (id, message_id, email, stream, ref, next_attempt_at, created_at)
    select ${randomId(dialect)}, ${q.messageId}, lower(e.email), 'follow', min(${ref}), ${at(dialect, q.now)}, ${at(dialect, q.now)}
    from follows f join "user" e on e.id = f.follower_id
    where f.writer_id in (${sql.join(q.writerIds)}) and f.delivery = ${q.delivery} and f.created_at <= ${at(dialect, q.now)} and ${notBounced}
    group by lower(e.email)
    on conflict (message_id, email) do nothing`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export type QueueRow = Pick<MailQueueTable, 'id' | 'message_id' | 'email' | 'stream' | 'ref'> & { attempts: number };

/** Claims up to `limit` due rows for one worker (a lease another worker takes over when it runs out). */
export async function claimDue(db: Db, dialect: DialectName, q: { now: string; leaseUntil: string; worker: string; limit: number }): Promise<QueueRow[]> {
  const rows = await claimLeased<QueueRow>(db, dialect, MAIL_QUEUE, { ...q, returning: ['id', 'message_id', 'email', 'stream', 'ref', 'attempts'] });
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
}

const MAIL_QUEUE: LeasedQueue = { table: 'mail_queue', waiting: 'queued', claimed: 'sending', dueAt: 'next_attempt_at', leaseUntil: 'claimed_until' };

/**
 * On PostgreSQL the mark is committed without waiting for the disk (synchronous_commit off, for
 * this transaction only): a flush per mail would cap sending at the disk's flush rate. Our
 * process dying loses nothing (the commit is in PostgreSQL's hands); PostgreSQL itself crashing
 * can lose the last fraction of a second of marks, and those mails go again with the same
 * Message-ID (docs/decisions/023).
 */
export async function markSent(db: Db, dialect: DialectName, id: string, now: string): Promise<void> {
  const mark = (trx: Db) => trx.updateTable('mail_queue').set({ status: 'sent', sent_at: now, claimed_until: null, last_error: null }).where('id', '=', id).execute();
  if (dialect !== 'postgres') {
    await mark(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await sql`set local synchronous_commit = off`.execute(trx);
    await mark(trx);
  });
}

export async function markRetry(db: Db, id: string, q: { nextAttemptAt: string; error: string }): Promise<void> {
  await db
    .updateTable('mail_queue')
    .set({ status: 'queued', next_attempt_at: q.nextAttemptAt, claimed_until: null, claimed_by: null, last_error: q.error.slice(0, 500) })
    .where('id', '=', id)
    .execute();
}

/** Mails to `email` still waiting to go, taken off the queue; answers how many. */
export async function cancelQueuedTo(db: Db, email: string): Promise<number> {
  const result = await db.deleteFrom('mail_queue').where('email', '=', email.toLowerCase()).where('status', '=', 'queued').executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function markFailed(db: Db, id: string, error: string): Promise<void> {
  await db.updateTable('mail_queue').set({ status: 'failed', claimed_until: null, last_error: error.slice(0, 500) }).where('id', '=', id).execute();
}

export async function markBounced(db: Db, q: { id: string; email: string; reason: string; now: string }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('mail_queue').set({ status: 'bounced', claimed_until: null, last_error: q.reason.slice(0, 500) }).where('id', '=', q.id).execute();
    await trx
      .insertInto('mail_bounces')
      .values({ email: q.email.toLowerCase(), reason: q.reason.slice(0, 500), created_at: q.now })
      .onConflict((oc) => oc.column('email').doNothing())
      .execute();
  });
}

/** Hands a stopping worker's claimed rows back without counting an attempt. */
export function releaseClaims(db: Db, worker: string, ids: string[]): Promise<void> {
  return releaseLeased(db, MAIL_QUEUE, worker, ids);
}

export async function bouncedAmong(db: Db, emails: string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db.selectFrom('mail_bounces').select('email').where('email', 'in', emails.map((e) => e.toLowerCase())).execute();
  return new Set(rows.map((r) => r.email));
}

export async function findMessages(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('mail_messages').selectAll().where('id', 'in', ids).execute();
}

/**
 * The blogs shown in mails: still Public, not removed by a moderator, not held for spam nor
 * waiting for a moderator (a blog hidden again after publishing is not sent; decisions 028, 029).
 */
export async function findPublicBlogs(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('blogs')
    .select(['id', 'owner_id', shownName('blogs.owner_id').as('name'), 'title', 'short_description', 'long_description', 'mail_teaser', 'photo', 'category', 'slug', 'created_at'])
    .where('id', 'in', ids)
    .where('availability', '=', 'Public')
    .where('removed_at', 'is', null)
    .where('held_until', 'is', null)
    .where('pending_since', 'is', null)
    .execute();
}

/** Blogs announced in a period (oldest first), optionally only those of some writers. */
export async function announcedBlogIds(db: Db, q: { from: string; to: string; writerIds?: string[] }): Promise<string[]> {
  let query = db
    .selectFrom('mail_messages as m')
    .innerJoin('blogs as b', 'b.id', 'm.blog_id')
    .select('b.id')
    .where('m.kind', '=', 'post')
    .where('m.created_at', '>', q.from)
    .where('m.created_at', '<=', q.to)
    .where('b.availability', '=', 'Public');
  if (q.writerIds) {
    if (q.writerIds.length === 0) return [];
    query = query.where('b.owner_id', 'in', q.writerIds);
  }
  return (await query.orderBy('m.created_at').limit(50).execute()).map((r) => r.id);
}

export async function writersOfAnnouncedBlogs(db: Db, q: { from: string; to: string }): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_messages as m')
    .innerJoin('blogs as b', 'b.id', 'm.blog_id')
    .select('b.owner_id')
    .distinct()
    .where('m.kind', '=', 'post')
    .where('m.created_at', '>', q.from)
    .where('m.created_at', '<=', q.to)
    .where('b.availability', '=', 'Public')
    .execute();
  return rows.map((r) => r.owner_id);
}

export async function followedWritersWithDigest(db: Db, followerId: string): Promise<string[]> {
  const rows = await db.selectFrom('follows').select('writer_id').where('follower_id', '=', followerId).where('delivery', '=', 'digest').execute();
  return rows.map((r) => r.writer_id);
}

export async function findSubscriberById(db: Db, id: string) {
  return db
    .selectFrom('subscribers')
    .select(['id', 'email', 'confirmed_at', 'delivery', 'imported_from', 'imported_site', shownName('subscribers.imported_by').as('imported_by_name')])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findUserEmail(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('email').where('id', '=', id).executeTakeFirst();
  return row?.email ?? null;
}

export async function findUserName(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('name').where('id', '=', id).executeTakeFirst();
  return row?.name ?? null;
}

export interface StatusRow {
  message_id: string;
  kind: MailKind;
  key: string;
  title: string | null;
  created_at: string;
  status: string;
  n: number;
}

/** Mails that are one per recipient (confirmations, notifications): summed into one line per kind. */
const SUMMED_KINDS: MailKind[] = ['confirm', 'notice', 'notice_digest'];

/** Counts per message and status, newest messages first; confirmations and notifications are summed per kind. */
export async function statusCounts(db: Db, limit: number): Promise<StatusRow[]> {
  const messages = db
    .selectFrom('mail_messages as m')
    .leftJoin('blogs as b', 'b.id', 'm.blog_id')
    .select(['m.id', 'm.kind', 'm.key', 'b.title', 'm.created_at'])
    .where('m.kind', 'not in', SUMMED_KINDS)
    .orderBy('m.created_at', 'desc')
    .limit(limit)
    .as('m');
  const perMessage = await db
    .selectFrom(messages)
    .innerJoin('mail_queue as q', 'q.message_id', 'm.id')
    .select(['m.id as message_id', 'm.kind', 'm.key', 'm.title', 'm.created_at', 'q.status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['m.id', 'm.kind', 'm.key', 'm.title', 'm.created_at', 'q.status'])
    .execute();
  const summed = await db
    .selectFrom('mail_queue as q')
    .innerJoin('mail_messages as m', 'm.id', 'q.message_id')
    .select(['m.kind', 'q.status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('m.created_at').as('created_at')])
    .where('m.kind', 'in', SUMMED_KINDS)
    .groupBy(['m.kind', 'q.status'])
    .execute();
  return [
    ...perMessage.map((r) => ({ ...r, n: Number(r.n) })),
    ...summed.map((r) => ({ message_id: r.kind === 'confirm' ? 'confirmations' : r.kind, kind: r.kind, key: r.kind, title: null, created_at: String(r.created_at), status: r.status, n: Number(r.n) })),
  ];
}

export async function countBounces(db: Db): Promise<number> {
  const row = await db.selectFrom('mail_bounces').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
