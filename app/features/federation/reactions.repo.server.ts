import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/** Keeps a like or boost; false when its id, or the same actor's reaction of that kind to that post, is here already. */
export async function insertReaction(db: Db, row: Database['remote_reactions']): Promise<boolean> {
  const result = await db.insertInto('remote_reactions').values(row).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Takes back the reaction with this activity id, only when `actorUri` sent it. */
export async function deleteReaction(db: Db, id: string, actorUri: string): Promise<number> {
  const result = await db.deleteFrom('remote_reactions').where('id', '=', id).where('actor_uri', '=', actorUri).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

export async function countReactions(db: Db, blogId: string): Promise<{ likes: number; boosts: number }> {
  const rows = await db.selectFrom('remote_reactions').select(['kind', (eb) => eb.fn.countAll<number>().as('n')]).where('blog_id', '=', blogId).groupBy('kind').execute();
  const of = (kind: 'like' | 'announce') => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
  return { likes: of('like'), boosts: of('announce') };
}

/** Forgets the reactions a block covers: an account's, or every account's on a server. */
export async function deleteReactionsMatching(db: Db, block: { kind: 'account' | 'instance'; target: string }): Promise<number> {
  const query = db.deleteFrom('remote_reactions');
  const result = await (block.kind === 'account'
    ? query.where('actor_uri', '=', block.target)
    : query.where((eb) => eb.or([eb('actor_uri', 'like', `http://${block.target}/%`), eb('actor_uri', 'like', `https://${block.target}/%`)]))
  ).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
