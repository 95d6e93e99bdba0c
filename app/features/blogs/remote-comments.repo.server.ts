import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/**
 * Removes, as a moderator's removal does, every shown comment of the remote actors an account
 * block (their actor id) or an instance block (their host) covers; answers how many.
 */
export async function removeCommentsOfRemote(db: Db, q: { actorUri?: string; host?: string; at: string; reason: string }): Promise<number> {
  const actors = db
    .selectFrom('remote_actors')
    .select('id')
    .where((eb) =>
      q.actorUri ? eb('uri', '=', q.actorUri) : eb.or([eb('uri', 'like', `http://${q.host}/%`), eb('uri', 'like', `https://${q.host}/%`)]),
    );
  const result = await db.updateTable('comments').set({ removed_at: q.at, removed_reason: q.reason }).where('remote_actor_id', 'in', actors).where('removed_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

/** Whose post a reply lands on (they hear of it). */
export async function findBlogOwner(db: Db, blogId: string): Promise<string | undefined> {
  return (await db.selectFrom('blogs').select('owner_id').where('id', '=', blogId).executeTakeFirst())?.owner_id;
}
