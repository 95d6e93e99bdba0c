import type { Kysely } from 'kysely';
import type { Database, MailDelivery } from '~/db/schema';

type Db = Kysely<Database>;

/** False when the reader followed the writer already. */
export async function insertFollow(db: Db, row: { follower_id: string; writer_id: string; created_at: string }): Promise<boolean> {
  const result = await db
    .insertInto('follows')
    .values(row)
    .onConflict((oc) => oc.columns(['follower_id', 'writer_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Answers the writers no longer followed. */
export async function deleteFollows(db: Db, followerId: string, writerId?: string): Promise<string[]> {
  let query = db.deleteFrom('follows').where('follower_id', '=', followerId);
  if (writerId) query = query.where('writer_id', '=', writerId);
  return (await query.returning('writer_id').execute()).map((r) => r.writer_id);
}

export async function setFollowDelivery(db: Db, followerId: string, writerId: string, delivery: MailDelivery): Promise<number> {
  const result = await db.updateTable('follows').set({ delivery }).where('follower_id', '=', followerId).where('writer_id', '=', writerId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function isFollowing(db: Db, followerId: string, writerId: string): Promise<boolean> {
  return (await db.selectFrom('follows').select('writer_id').where('follower_id', '=', followerId).where('writer_id', '=', writerId).executeTakeFirst()) !== undefined;
}

export async function countFollowers(db: Db, writerId: string): Promise<number> {
  const row = await db.selectFrom('follows').select((eb) => eb.fn.countAll<number>().as('n')).where('writer_id', '=', writerId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The writers someone follows, with their current name and photo (read through the user id). */
export async function listFollowing(db: Db, followerId: string, limit: number) {
  return db
    .selectFrom('follows as f')
    .innerJoin('user as u', 'u.id', 'f.writer_id')
    .leftJoin('profiles as p', 'p.user_id', 'f.writer_id')
    .select(['f.writer_id', 'f.delivery', 'f.created_at', 'u.name as account_name', 'p.name as profile_name', 'u.image as account_image', 'p.photo as profile_photo'])
    .where('f.follower_id', '=', followerId)
    .orderBy('f.created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function findWriter(db: Db, writerId: string) {
  return db
    .selectFrom('user as u')
    .leftJoin('profiles as p', 'p.user_id', 'u.id')
    .select(['u.id', 'u.name as account_name', 'p.name as profile_name'])
    .where('u.id', '=', writerId)
    .executeTakeFirst();
}

