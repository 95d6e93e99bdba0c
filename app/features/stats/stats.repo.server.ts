import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/** Every blog a writer has, hidden ones too (only she sees these numbers), newest first. */
export function writerBlogs(db: Db, ownerId: string) {
  return db
    .selectFrom('blogs')
    .select(['id', 'title', 'slug', 'availability', 'created_at', 'views', 'likes', 'comments_count'])
    .where('owner_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Views per blog and UTC day from `since` (YYYY-MM-DD) on. */
export function viewsPerDay(db: Db, blogIds: string[], since: string) {
  if (blogIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('blog_views_daily').select(['blog_id', 'day', 'views']).where('blog_id', 'in', blogIds).where('day', '>=', since).orderBy('day').execute();
}

/** When each of the writer's followers started following her. */
export function followTimes(db: Db, writerId: string) {
  return db.selectFrom('follows').select('created_at').where('writer_id', '=', writerId).execute();
}

/** Post mails delivered per blog (the announcement of a post; digests are not counted per post). */
export async function mailsSentPerBlog(db: Db, blogIds: string[]): Promise<Map<string, number>> {
  if (blogIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('mail_queue as q')
    .innerJoin('mail_messages as m', 'm.id', 'q.message_id')
    .select(['m.blog_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('m.kind', '=', 'post')
    .where('q.status', '=', 'sent')
    .where('m.blog_id', 'in', blogIds)
    .groupBy('m.blog_id')
    .execute();
  return new Map(rows.map((r) => [r.blog_id ?? '', Number(r.n)]));
}
