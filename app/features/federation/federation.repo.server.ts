import { type Kysely, sql } from 'kysely';
import type { ActorKeysTable, Database } from '~/db/schema';

type Db = Kysely<Database>;

// ---- the federation library's key-value store (docs/decisions/068) ----

export async function kvGet(db: Db, key: string, now: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('fedify_kv')
    .select('value')
    .where('key', '=', key)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return row?.value;
}

export async function kvSet(db: Db, key: string, value: string, expiresAt: string | null): Promise<void> {
  await db
    .insertInto('fedify_kv')
    .values({ key, value, expires_at: expiresAt })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires_at: expiresAt }))
    .execute();
}

export async function kvDelete(db: Db, key: string): Promise<void> {
  await db.deleteFrom('fedify_kv').where('key', '=', key).execute();
}

/** Sets `key` to `value` only while it holds `expected` (undefined: absent or expired); true when it did. */
export async function kvCompareAndSet(db: Db, q: { key: string; expected: string | undefined; value: string; expiresAt: string | null; now: string }): Promise<boolean> {
  if (q.expected === undefined) {
    await db.deleteFrom('fedify_kv').where('key', '=', q.key).where('expires_at', '<=', q.now).execute();
    const inserted = await db.insertInto('fedify_kv').values({ key: q.key, value: q.value, expires_at: q.expiresAt }).onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const updated = await db
    .updateTable('fedify_kv')
    .set({ value: q.value, expires_at: q.expiresAt })
    .where('key', '=', q.key)
    .where('value', '=', q.expected)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', q.now)]))
    .executeTakeFirst();
  return Number(updated.numUpdatedRows ?? 0) > 0;
}

/** Entries whose key text starts with `prefix` (a JSON array's text without its closing bracket), or equals `exact`. */
export async function kvList(db: Db, q: { prefix: string; exact: string; now: string }): Promise<{ key: string; value: string }[]> {
  return db
    .selectFrom('fedify_kv')
    .select(['key', 'value'])
    .where((eb) => eb.or([eb('key', '=', q.exact), eb(sql<string>`substr(key, 1, ${q.prefix.length})`, '=', q.prefix)]))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', q.now)]))
    .orderBy('key')
    .execute();
}

// ---- actors ----

export interface ActorProfileRow {
  id: string;
  name: string;
  image: string | null;
  bio: string | null;
  website: string | null;
  handle: string | null;
}

/** A person with their current handle (null until they get one). */
export async function findActorProfile(db: Db, userId: string): Promise<ActorProfileRow | undefined> {
  return db
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .leftJoin('actor_handles', (join) => join.onRef('actor_handles.user_id', '=', 'user.id').on('actor_handles.current', '=', 1))
    .select(['user.id', sql<string>`coalesce(profiles.name, "user".name)`.as('name'), sql<string | null>`coalesce(profiles.photo, "user".image)`.as('image'), 'profiles.bio', 'profiles.website', 'actor_handles.handle'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
}

/** Whose handle this is, current or an old one kept as an alias. */
export async function findHandle(db: Db, handle: string): Promise<{ user_id: string; current: number } | undefined> {
  const row = await db.selectFrom('actor_handles').select(['user_id', 'current']).where('handle', '=', handle).executeTakeFirst();
  return row && { user_id: row.user_id, current: Number(row.current) };
}

/** Gives the person `handle` as their current one; false when someone has it. */
export async function insertHandle(db: Db, q: { handle: string; userId: string; now: string }): Promise<boolean> {
  const result = await db
    .insertInto('actor_handles')
    .values({ handle: q.handle, user_id: q.userId, current: 1, created_at: q.now })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** The person's current handle becomes an old one (it still resolves to them). */
export async function retireCurrentHandle(db: Db, userId: string): Promise<void> {
  await db.updateTable('actor_handles').set({ current: 0 }).where('user_id', '=', userId).where('current', '=', 1).execute();
}

/** One of the person's own handles becomes their current one again. */
export async function makeHandleCurrent(db: Db, handle: string, userId: string): Promise<boolean> {
  const result = await db.updateTable('actor_handles').set({ current: 1 }).where('handle', '=', handle).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows ?? 0) > 0;
}

/** Users who never got a handle, oldest first. */
export async function usersWithoutHandle(db: Db, limit: number): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom('user')
    .leftJoin('profiles', 'profiles.user_id', 'user.id')
    .select(['user.id', sql<string>`coalesce(profiles.name, "user".name)`.as('name')])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('actor_handles').select('handle').whereRef('actor_handles.user_id', '=', 'user.id'))))
    .limit(limit)
    .execute();
}

export async function findKeys(db: Db, owner: string): Promise<Pick<ActorKeysTable, 'algorithm' | 'private_jwk' | 'public_jwk'>[]> {
  return db.selectFrom('actor_keys').select(['algorithm', 'private_jwk', 'public_jwk']).where('owner', '=', owner).orderBy('algorithm', 'desc').execute();
}

/** Stores a key pair unless the owner has one of that algorithm (another instance made it first). */
export async function insertKey(db: Db, row: ActorKeysTable): Promise<void> {
  await db.insertInto('actor_keys').values(row).onConflict((oc) => oc.columns(['owner', 'algorithm']).doNothing()).execute();
}

/** A deleted account's keys and followers, once its last activity is queued (docs/decisions/088); how many keys it had. */
export async function forgetActor(db: Db, owner: string): Promise<number> {
  const keys = await db.deleteFrom('actor_keys').where('owner', '=', owner).executeTakeFirst();
  await db.deleteFrom('remote_followers').where('local_actor', '=', owner).execute();
  return Number(keys.numDeletedRows ?? 0);
}

/**
 * Whether a withdrawal of `authorId`'s comments still waits in the job queue: the event not yet
 * handed on, or the federation's job for it not yet run (its payload names the author).
 */
export async function commentWithdrawalsWaiting(db: Db, authorId: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('kind', 'in', ['event', 'on:comment.withdrawn:federation'])
    .where('status', 'in', ['queued', 'running'])
    .where('payload', 'like', `%"name":"comment.withdrawn"%`)
    .where('payload', 'like', `%"authorId":${JSON.stringify(authorId)}%`)
    .executeTakeFirst();
  return row !== undefined;
}

// ---- followers ----

export async function insertFollower(db: Db, row: Database['remote_followers']): Promise<void> {
  await db
    .insertInto('remote_followers')
    .values(row)
    .onConflict((oc) => oc.columns(['local_actor', 'actor_uri']).doUpdateSet({ inbox: row.inbox, shared_inbox: row.shared_inbox, handle: row.handle }))
    .execute();
}

export async function deleteFollower(db: Db, localActor: string, actorUri: string): Promise<number> {
  const result = await db.deleteFrom('remote_followers').where('local_actor', '=', localActor).where('actor_uri', '=', actorUri).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

export async function findFollower(db: Db, localActor: string, id: string) {
  return db.selectFrom('remote_followers').selectAll().where('local_actor', '=', localActor).where('id', '=', id).executeTakeFirst();
}

/** A page of an actor's followers, in the order they came; `after` is the last id of the page before. */
export async function listFollowers(db: Db, localActor: string, page: { after?: string; limit: number }) {
  let query = db.selectFrom('remote_followers').selectAll().where('local_actor', '=', localActor);
  if (page.after) query = query.where('id', '>', page.after);
  return query.orderBy('id').limit(page.limit).execute();
}

export async function countFollowers(db: Db, localActor: string): Promise<number> {
  const row = await db.selectFrom('remote_followers').select((eb) => eb.fn.countAll<number>().as('n')).where('local_actor', '=', localActor).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- posts ----

export interface PostRow {
  id: string;
  owner_id: string;
  title: string;
  category: string;
  short_description: string;
  long_description: string;
  photo: string | null;
  availability: string;
  created_at: string;
  updated_at: string;
  removed_at: string | null;
  held_until: string | null;
  pending_since: string | null;
  slug: string | null;
  tags_text: string;
}

const POST_COLUMNS = ['id', 'owner_id', 'title', 'category', 'short_description', 'long_description', 'photo', 'availability', 'created_at', 'updated_at', 'removed_at', 'held_until', 'pending_since', 'slug', 'tags_text'] as const;

export async function findPost(db: Db, id: string): Promise<PostRow | undefined> {
  return db.selectFrom('blogs').select(POST_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A writer's posts that may leave (Public, not removed, not held, not waiting), newest first. */
export async function listOutgoingPosts(db: Db, ownerId: string | null, q: { now: string; limit: number; before?: string }): Promise<PostRow[]> {
  let query = db
    .selectFrom('blogs')
    .select(POST_COLUMNS)
    .where('availability', '=', 'Public')
    .where('removed_at', 'is', null)
    .where('pending_since', 'is', null)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '<=', q.now)]));
  if (ownerId) query = query.where('owner_id', '=', ownerId);
  if (q.before) query = query.where('created_at', '<', q.before);
  return query.orderBy('created_at', 'desc').limit(q.limit).execute();
}

export async function countOutgoingPosts(db: Db, ownerId: string | null, now: string): Promise<number> {
  let query = db
    .selectFrom('blogs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('availability', '=', 'Public')
    .where('removed_at', 'is', null)
    .where('pending_since', 'is', null)
    .where((eb) => eb.or([eb('held_until', 'is', null), eb('held_until', '<=', now)]));
  if (ownerId) query = query.where('owner_id', '=', ownerId);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Writers with at least one post, for NodeInfo's usage figures. */
export async function countUsers(db: Db): Promise<number> {
  return Number((await db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

// ---- remote authors and their replies ----

/** The remote actor's row, made or brought up to date; answers its id and when it was first seen. */
export async function upsertRemoteActor(db: Db, actor: { id: string; uri: string; handle: string; name: string | null; avatar_url: string | null; profile_url: string | null; now: string }) {
  await db
    .insertInto('remote_actors')
    .values({ id: actor.id, uri: actor.uri, handle: actor.handle, name: actor.name, avatar_url: actor.avatar_url, profile_url: actor.profile_url, created_at: actor.now, updated_at: actor.now })
    .onConflict((oc) => oc.column('uri').doUpdateSet({ handle: actor.handle, name: actor.name, avatar_url: actor.avatar_url, profile_url: actor.profile_url, updated_at: actor.now }))
    .execute();
  return db.selectFrom('remote_actors').select(['id', 'created_at']).where('uri', '=', actor.uri).executeTakeFirstOrThrow();
}

export async function findReply(db: Db, uri: string) {
  return db
    .selectFrom('remote_replies')
    .innerJoin('comments', 'comments.id', 'remote_replies.comment_id')
    .select(['remote_replies.uri', 'remote_replies.comment_id', 'remote_replies.actor_uri', 'comments.blog_id'])
    .where('remote_replies.uri', '=', uri)
    .executeTakeFirst();
}

export async function insertReply(db: Db, row: Database['remote_replies']): Promise<void> {
  await db.insertInto('remote_replies').values(row).onConflict((oc) => oc.column('uri').doNothing()).execute();
}

/** The blog of a local comment (a reply may answer one of ours). */
export async function findCommentBlog(db: Db, commentId: string): Promise<string | undefined> {
  return (await db.selectFrom('comments').select('blog_id').where('id', '=', commentId).executeTakeFirst())?.blog_id;
}

// ---- status (npm run federation:status) ----

/** Federation's jobs by status: Fedify's messages and the event deliveries that queue them. */
export async function queueCounts(db: Db): Promise<{ status: string; n: number }[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where((eb) => eb.or([eb('kind', '=', 'federation:message'), eb('kind', 'like', 'on:%:federation')]))
    .groupBy('status')
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function tableCounts(db: Db): Promise<{ handles: number; followers: number; replies: number; remoteActors: number }> {
  const count = async (table: 'actor_handles' | 'remote_followers' | 'remote_replies' | 'remote_actors') =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { handles: await count('actor_handles'), followers: await count('remote_followers'), replies: await count('remote_replies'), remoteActors: await count('remote_actors') };
}

// ---- blocks ----

export async function insertBlock(db: Db, row: Database['federation_blocks']): Promise<boolean> {
  const result = await db.insertInto('federation_blocks').values(row).onConflict((oc) => oc.columns(['kind', 'target']).doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findBlock(db: Db, id: string) {
  return db.selectFrom('federation_blocks').select(['kind', 'target']).where('id', '=', id).executeTakeFirst();
}

export async function deleteBlock(db: Db, id: string): Promise<number> {
  return Number((await db.deleteFrom('federation_blocks').where('id', '=', id).executeTakeFirst()).numDeletedRows ?? 0);
}

export async function listBlocks(db: Db) {
  return db.selectFrom('federation_blocks').selectAll().orderBy('created_at', 'desc').execute();
}

/** Whether this actor, or its server, is blocked. */
export async function isBlocked(db: Db, actorUri: string, host: string): Promise<boolean> {
  const row = await db
    .selectFrom('federation_blocks')
    .select('id')
    .where((eb) => eb.or([eb.and([eb('kind', '=', 'account'), eb('target', '=', actorUri)]), eb.and([eb('kind', '=', 'instance'), eb('target', '=', host)])]))
    .executeTakeFirst();
  return row !== undefined;
}

/** The blocks among these accounts (actor ids) and servers (hosts), in one read. */
export async function blocksAmong(db: Db, q: { actors: readonly string[]; hosts: readonly string[] }): Promise<{ kind: 'account' | 'instance'; target: string }[]> {
  return db
    .selectFrom('federation_blocks')
    .select(['kind', 'target'])
    .where((eb) => {
      const covered = [eb.and([eb('kind', '=', 'instance'), eb('target', 'in', q.hosts)])];
      if (q.actors.length > 0) covered.push(eb.and([eb('kind', '=', 'account'), eb('target', 'in', q.actors)]));
      return eb.or(covered);
    })
    .execute();
}

/** A remote account we know, by its handle (`@user@host`). */
export async function findRemoteActorByHandle(db: Db, handle: string): Promise<string | undefined> {
  return (await db.selectFrom('remote_actors').select('uri').where('handle', '=', handle).executeTakeFirst())?.uri;
}

/** Forgets the followers a block covers: nothing is delivered to them again. */
export async function deleteFollowersMatching(db: Db, block: { kind: 'account' | 'instance'; target: string }): Promise<void> {
  const query = db.deleteFrom('remote_followers');
  await (block.kind === 'account' ? query.where('actor_uri', '=', block.target) : query.where((eb) => eb.or([eb('actor_uri', 'like', `http://${block.target}/%`), eb('actor_uri', 'like', `https://${block.target}/%`)]))).execute();
}

// ---- local comments as replies (docs/decisions/068) ----

export interface CommentRow {
  id: string;
  blog_id: string;
  user_id: string | null;
  parent_id: string | null;
  comment_text: string;
  commented_at: string;
  edited_at: string | null;
  hidden_at: string | null;
  removed_at: string | null;
  pending_since: string | null;
  deleted_at: string | null;
}

export async function findComment(db: Db, id: string): Promise<CommentRow | undefined> {
  return db
    .selectFrom('comments')
    .select(['id', 'blog_id', 'user_id', 'parent_id', 'comment_text', 'commented_at', 'edited_at', 'hidden_at', 'removed_at', 'pending_since', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** What a comment answers, as federation names it: a local author's comment, or a remote reply's original id and author. */
export async function findParentForReply(db: Db, id: string): Promise<{ id: string; user_id: string | null; reply_uri: string | null; actor_uri: string | null; actor_handle: string | null } | undefined> {
  return db
    .selectFrom('comments')
    .leftJoin('remote_replies', 'remote_replies.comment_id', 'comments.id')
    .leftJoin('remote_actors', 'remote_actors.id', 'comments.remote_actor_id')
    .select(['comments.id', 'comments.user_id', 'remote_replies.uri as reply_uri', 'remote_actors.uri as actor_uri', 'remote_actors.handle as actor_handle'])
    .where('comments.id', '=', id)
    .executeTakeFirst();
}
