import { type Kysely, sql } from 'kysely';
import type { Database, DialectName } from '~/db/schema';

type Db = Kysely<Database>;

/** How many rows wait in a queue, and since when the oldest waits (ISO, or null when none does). */
export interface QueueRow {
  depth: number;
  oldestAt: string | null;
}

/** Mails not yet handed to the SMTP server: queued, or claimed by a worker and being sent. */
export async function mailQueue(db: Db): Promise<QueueRow> {
  const row = await db
    .selectFrom('mail_queue')
    .select([sql<number>`count(*)`.as('depth'), sql<string | null>`min(created_at)`.as('oldestAt')])
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestAt: row.oldestAt };
}

/** Reports waiting for a moderator. */
export async function openReports(db: Db): Promise<QueueRow> {
  const row = await db
    .selectFrom('reports')
    .select([sql<number>`count(*)`.as('depth'), sql<string | null>`min(created_at)`.as('oldestAt')])
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestAt: row.oldestAt };
}

export async function countUsersAndBlogs(db: Db): Promise<{ users: number; blogs: number }> {
  const [users, blogs] = await Promise.all([
    db.selectFrom('user').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db.selectFrom('blogs').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { users: Number(users.n), blogs: Number(blogs.n) };
}

/** The database's size on disk in bytes: SQLite's pages (the WAL aside), PostgreSQL's own figure. */
export async function databaseBytes(db: Db, dialect: DialectName): Promise<number> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ bytes: number | string }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  }
  const { rows } = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  return Number(rows[0]?.bytes ?? 0);
}
