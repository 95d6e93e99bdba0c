import { type Kysely, sql } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

// ---- a reader's follows of remote accounts (docs/decisions/081) ----

/** False when the reader follows that account already. */
export async function insertFollow(db: Db, row: Database['remote_follows']): Promise<boolean> {
  const result = await db.insertInto('remote_follows').values(row).onConflict((oc) => oc.columns(['follower_id', 'remote_actor_id']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

const FOLLOW_COLUMNS = ['f.id', 'f.state', 'f.follow_uri', 'f.inbox', 'f.shared_inbox', 'f.created_at', 'a.uri as actor_uri', 'a.handle', 'a.name', 'a.avatar_url', 'a.profile_url'] as const;

export async function findFollow(db: Db, followerId: string, q: { id?: string; remoteActorId?: string }) {
  let query = db.selectFrom('remote_follows as f').innerJoin('remote_actors as a', 'a.id', 'f.remote_actor_id').select(FOLLOW_COLUMNS).where('f.follower_id', '=', followerId);
  if (q.id) query = query.where('f.id', '=', q.id);
  if (q.remoteActorId) query = query.where('f.remote_actor_id', '=', q.remoteActorId);
  return query.executeTakeFirst();
}

export async function listFollows(db: Db, followerId: string, limit: number) {
  return db
    .selectFrom('remote_follows as f')
    .innerJoin('remote_actors as a', 'a.id', 'f.remote_actor_id')
    .select(FOLLOW_COLUMNS)
    .where('f.follower_id', '=', followerId)
    .orderBy('f.created_at', 'desc')
    .limit(limit)
    .execute();
}

export async function deleteFollow(db: Db, followerId: string, id: string): Promise<number> {
  return Number((await db.deleteFrom('remote_follows').where('follower_id', '=', followerId).where('id', '=', id).executeTakeFirst()).numDeletedRows ?? 0);
}

const ofActor = (db: Db, actorUri: string) => db.selectFrom('remote_actors').select('id').where('uri', '=', actorUri);

/** The account accepted the Follow with this id; only that account's Accept counts. */
export async function acceptFollow(db: Db, followUri: string, actorUri: string, now: string): Promise<number> {
  const result = await db
    .updateTable('remote_follows')
    .set({ state: 'accepted', accepted_at: now })
    .where('follow_uri', '=', followUri)
    .where('remote_actor_id', 'in', ofActor(db, actorUri))
    .executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

export async function deleteFollowByUri(db: Db, followUri: string, actorUri: string): Promise<number> {
  const result = await db.deleteFrom('remote_follows').where('follow_uri', '=', followUri).where('remote_actor_id', 'in', ofActor(db, actorUri)).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The remote actor's row when someone here follows it (or asked to); undefined otherwise. */
export async function findFollowedActor(db: Db, actorUri: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('remote_actors as a')
    .select('a.id')
    .where('a.uri', '=', actorUri)
    .where(({ exists, selectFrom }) => exists(selectFrom('remote_follows as f').select('f.id').whereRef('f.remote_actor_id', '=', 'a.id')))
    .executeTakeFirst();
  return row?.id;
}

type Block = { kind: 'account' | 'instance'; target: string };

/** The remote accounts a block covers: that account, or every account of that server (as deleteFollowersMatching matches them). */
const actorsMatching = (db: Db, block: Block) => {
  const query = db.selectFrom('remote_actors').select('id');
  return block.kind === 'account' ? query.where('uri', '=', block.target) : query.where((eb) => eb.or([eb('uri', 'like', `http://${block.target}/%`), eb('uri', 'like', `https://${block.target}/%`)]));
};

/** Every reader's follow of an account a block covers, with what its Undo needs. */
export async function followsMatching(db: Db, block: Block) {
  return db
    .selectFrom('remote_follows as f')
    .innerJoin('remote_actors as a', 'a.id', 'f.remote_actor_id')
    .select(['f.id', 'f.follower_id', 'f.follow_uri', 'f.inbox', 'f.shared_inbox', 'a.uri as actor_uri'])
    .where('f.remote_actor_id', 'in', actorsMatching(db, block))
    .orderBy('f.id')
    .execute();
}

/** Forgets the posts (and the readers' replies to them) of the accounts a block covers. */
export async function deletePostsMatching(db: Db, block: Block): Promise<number> {
  return Number((await db.deleteFrom('remote_posts').where('remote_actor_id', 'in', actorsMatching(db, block)).executeTakeFirst()).numDeletedRows ?? 0);
}

// ---- their posts ----

export async function insertPost(db: Db, row: Database['remote_posts']): Promise<void> {
  await db.insertInto('remote_posts').values(row).onConflict((oc) => oc.column('uri').doNothing()).execute();
}

/** Its author changed a post; another account's Update of it changes nothing. */
export async function updatePost(db: Db, uri: string, remoteActorId: string, set: Pick<Database['remote_posts'], 'title' | 'summary' | 'content' | 'url' | 'updated_at'>): Promise<number> {
  const result = await db.updateTable('remote_posts').set(set).where('uri', '=', uri).where('remote_actor_id', '=', remoteActorId).executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0);
}

export async function deletePost(db: Db, uri: string, actorUri: string): Promise<number> {
  const result = await db.deleteFrom('remote_posts').where('uri', '=', uri).where('remote_actor_id', 'in', ofActor(db, actorUri)).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The newest posts of the accounts a reader follows (accepted or not yet), with their authors. */
export async function listFeed(db: Db, followerId: string, limit: number) {
  return db
    .selectFrom('remote_posts as p')
    .innerJoin('remote_follows as f', (join) => join.onRef('f.remote_actor_id', '=', 'p.remote_actor_id').on('f.follower_id', '=', followerId))
    .innerJoin('remote_actors as a', 'a.id', 'p.remote_actor_id')
    .select(['p.id', 'p.uri', 'p.kind', 'p.title', 'p.summary', 'p.content', 'p.url', 'p.published_at', 'p.updated_at', 'a.uri as actor_uri', 'a.handle', 'a.name', 'a.profile_url'])
    .orderBy('p.published_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .execute();
}

/** A post as a reader who follows its author may answer it. */
export async function findPostForFollower(db: Db, postId: string, followerId: string) {
  return db
    .selectFrom('remote_posts as p')
    .innerJoin('remote_follows as f', (join) => join.onRef('f.remote_actor_id', '=', 'p.remote_actor_id').on('f.follower_id', '=', followerId))
    .innerJoin('remote_actors as a', 'a.id', 'p.remote_actor_id')
    .select(['p.id', 'p.uri', 'p.url', 'a.uri as actor_uri', 'a.handle', 'f.inbox', 'f.shared_inbox'])
    .where('p.id', '=', postId)
    .executeTakeFirst();
}

// ---- a reader's replies to them ----

export async function insertReply(db: Db, row: Database['remote_post_replies']): Promise<void> {
  await db.insertInto('remote_post_replies').values(row).execute();
}

export async function listOwnReplies(db: Db, userId: string, postIds: string[]) {
  if (postIds.length === 0) return [];
  return db
    .selectFrom('remote_post_replies')
    .select(['id', 'remote_post_id', 'reply_text', 'created_at'])
    .where('user_id', '=', userId)
    .where('remote_post_id', 'in', postIds)
    .orderBy('created_at')
    .execute();
}

// ---- bounded retention ----

/** Forgets posts older than `before`, past the newest `perActor` of each account, and of accounts nobody here follows. */
export async function prunePosts(db: Db, q: { before: string; perActor: number }): Promise<number> {
  const old = await db.deleteFrom('remote_posts').where('published_at', '<', q.before).executeTakeFirst();
  const unfollowed = await db
    .deleteFrom('remote_posts')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('remote_follows as f').select('f.id').whereRef('f.remote_actor_id', '=', 'remote_posts.remote_actor_id'))))
    .executeTakeFirst();
  const beyond = await db
    .deleteFrom('remote_posts')
    .where(
      'id',
      'in',
      db
        .selectFrom(
          db
            .selectFrom('remote_posts')
            .select(['id', sql<number>`row_number() over (partition by remote_actor_id order by published_at desc, id desc)`.as('n')])
            .as('ranked'),
        )
        .select('ranked.id')
        .where('ranked.n', '>', q.perActor),
    )
    .executeTakeFirst();
  return [old, unfollowed, beyond].reduce((sum, r) => sum + Number(r.numDeletedRows ?? 0), 0);
}
