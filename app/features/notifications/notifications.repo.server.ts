import { type Kysely, sql } from 'kysely';
import { shownName, shownPhoto } from '~/db/shared-sql.server';
import type { Database, NotificationDelivery, NotificationKind } from '~/db/schema';

type Db = Kysely<Database>;

export async function findGroup(db: Db, recipientId: string, groupKey: string) {
  return db.selectFrom('notifications').select(['id', 'read_at']).where('recipient_id', '=', recipientId).where('group_key', '=', groupKey).executeTakeFirst();
}

export async function hasActor(db: Db, notificationId: string, actorId: string): Promise<boolean> {
  const row = await db.selectFrom('notification_actors').select('actor_id').where('notification_id', '=', notificationId).where('actor_id', '=', actorId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Opens the recipient's group, or brings it back: unread again, at the top, with this actor as
 * the one named first. Answers the group's id either way.
 */
export async function upsertGroup(
  db: Db,
  row: { id: string; recipient_id: string; kind: NotificationKind; group_key: string; blog_id: string | null; comment_id: string | null; actor_id: string | null; detail: string | null; now: string },
): Promise<string> {
  const { now, ...rest } = row;
  const saved = await db
    .insertInto('notifications')
    .values({ ...rest, created_at: now, updated_at: now, read_at: null })
    .onConflict((oc) =>
      oc.columns(['recipient_id', 'group_key']).doUpdateSet({ updated_at: now, read_at: null, actor_id: row.actor_id, comment_id: row.comment_id, detail: row.detail }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return saved.id;
}

/** Adds the actor to the group and counts its distinct people anew. */
export async function addActor(db: Db, notificationId: string, actorId: string, now: string): Promise<void> {
  await db
    .insertInto('notification_actors')
    .values({ notification_id: notificationId, actor_id: actorId, created_at: now })
    .onConflict((oc) => oc.columns(['notification_id', 'actor_id']).doNothing())
    .execute();
  await db
    .updateTable('notifications')
    .set((eb) => ({ actor_count: eb.selectFrom('notification_actors').select((e) => e.fn.countAll<number>().as('n')).where('notification_id', '=', notificationId) }))
    .where('id', '=', notificationId)
    .execute();
}

/** A group with what the page and the mails show of it: the blog it is about and who acted first. */
function selectNotifications(db: Db) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('blogs as b', 'b.id', 'n.blog_id')
    .select([
      'n.id',
      'n.recipient_id',
      'n.kind',
      'n.blog_id',
      'n.comment_id',
      'n.actor_id',
      'n.actor_count',
      'n.detail',
      'n.created_at',
      'n.updated_at',
      'n.read_at',
      'b.title as blog_title',
      'b.slug as blog_slug',
      'b.owner_id as blog_owner_id',
      'b.availability as blog_availability',
      'b.removed_at as blog_removed_at',
      // A reply from another server has no local actor: its remote author's name (or handle) stands in.
      sql<string | null>`coalesce(${shownName('n.actor_id')}, (select coalesce(ra.name, ra.handle) from comments c join remote_actors ra on ra.id = c.remote_actor_id where c.id = n.comment_id and n.actor_id is null))`.as('actor_name'),
      shownPhoto('n.actor_id').as('actor_photo'),
    ]);
}

/** A recipient's groups, newest activity first, with what each shows. */
export async function listForRecipient(db: Db, recipientId: string, q: { limit: number; offset: number }) {
  return selectNotifications(db)
    .where('n.recipient_id', '=', recipientId)
    .orderBy('n.updated_at', 'desc')
    .orderBy('n.id')
    .limit(q.limit)
    .offset(q.offset)
    .execute();
}
export type NotificationRow = Awaited<ReturnType<typeof listForRecipient>>[number];

/** The same rows, for one group or for a recipient's groups active in a period (mails). */
export async function listForMail(db: Db, q: { id: string } | { recipientId: string; from: string; to: string; kinds: NotificationKind[] }) {
  let query = selectNotifications(db);
  if ('id' in q) query = query.where('n.id', '=', q.id);
  else {
    if (q.kinds.length === 0) return [];
    query = query.where('n.recipient_id', '=', q.recipientId).where('n.updated_at', '>', q.from).where('n.updated_at', '<=', q.to).where('n.kind', 'in', q.kinds);
  }
  return query.orderBy('n.updated_at', 'desc').limit(50).execute();
}

export async function countForRecipient(db: Db, recipientId: string): Promise<number> {
  const row = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).where('recipient_id', '=', recipientId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countUnread(db: Db, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks the recipient's groups read (only theirs, only unread ones); `ids` undefined: all. */
export async function markRead(db: Db, recipientId: string, ids: string[] | undefined, now: string): Promise<number> {
  let query = db.updateTable('notifications').set({ read_at: now }).where('recipient_id', '=', recipientId).where('read_at', 'is', null);
  if (ids) query = query.where('id', 'in', ids);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Removes groups with no activity since `before`; answers how many. */
export async function deleteOlderThan(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('notifications').where('updated_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findSettings(db: Db, userId: string) {
  return db.selectFrom('notification_settings').select(['kind', 'delivery']).where('user_id', '=', userId).execute();
}

export async function saveSetting(db: Db, row: { user_id: string; kind: NotificationKind; delivery: NotificationDelivery }): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ delivery: row.delivery }))
    .execute();
}

export async function findUserEmail(db: Db, id: string): Promise<string | null> {
  const row = await db.selectFrom('user').select('email').where('id', '=', id).executeTakeFirst();
  return row?.email ?? null;
}

/** Users with any kind in a daily digest (`defaultDigestKinds`: never empty) and activity in the period: who gets a digest mail. */
export async function digestRecipients(db: Db, q: { from: string; to: string; defaultDigestKinds: NotificationKind[] }): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications as n')
    .select('n.recipient_id')
    .distinct()
    .where('n.updated_at', '>', q.from)
    .where('n.updated_at', '<=', q.to)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('notification_settings as s')
            .select('s.kind')
            .whereRef('s.user_id', '=', 'n.recipient_id')
            .whereRef('s.kind', '=', 'n.kind')
            .where('s.delivery', '=', 'digest'),
        ),
        eb.and([
          eb('n.kind', 'in', q.defaultDigestKinds),
          eb.not(eb.exists(eb.selectFrom('notification_settings as s').select('s.kind').whereRef('s.user_id', '=', 'n.recipient_id').whereRef('s.kind', '=', 'n.kind'))),
        ]),
      ]),
    )
    .limit(10_000)
    .execute();
  return rows.map((r) => r.recipient_id);
}

export async function findComment(db: Db, id: string) {
  return db.selectFrom('comments').select(['id', 'blog_id', 'user_id', 'removed_at', 'pending_since', 'hidden_at', 'deleted_at']).where('id', '=', id).executeTakeFirst();
}

export async function findBlog(db: Db, id: string) {
  return db.selectFrom('blogs').select(['id', 'owner_id', 'title', 'availability', 'removed_at', 'pending_since']).where('id', '=', id).executeTakeFirst();
}
