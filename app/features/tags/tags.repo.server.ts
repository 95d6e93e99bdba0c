import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';
import { blogShownToAll } from '~/db/shared-sql.server';

type Db = Kysely<Database>;

/** The writer of a blog, or undefined when there is no such blog. */
export async function blogOwner(db: Db, blogId: string): Promise<string | undefined> {
  return (await db.selectFrom('blogs').select('owner_id').where('id', '=', blogId).executeTakeFirst())?.owner_id;
}

/** The tags of these keys that exist already. */
export async function findTags(db: Db, keys: string[]): Promise<{ id: string; key: string; name: string }[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('tags').select(['id', 'key', 'name']).where('key', 'in', keys).execute();
}

/** Adds the tags not there yet (another writer may add one at the same moment: the key decides). */
export async function insertTags(db: Db, rows: { id: string; key: string; name: string; created_at: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('tags').values(rows).onConflict((oc) => oc.column('key').doNothing()).execute();
}

/** The blog's tags become `tags`, in this order; its tags_text follows in the same statement group. */
export async function replaceBlogTags(db: Db, blogId: string, tags: { id: string; name: string }[]): Promise<void> {
  await db.deleteFrom('blog_tags').where('blog_id', '=', blogId).execute();
  if (tags.length > 0) await db.insertInto('blog_tags').values(tags.map((tag, position) => ({ blog_id: blogId, tag_id: tag.id, position }))).execute();
  await db.updateTable('blogs').set({ tags_text: tags.map((tag) => tag.name).join(' ') }).where('id', '=', blogId).execute();
}

/** Each blog's tag names in its writer's order. */
export async function tagNamesOf(db: Db, blogIds: string[]): Promise<{ blog_id: string; name: string }[]> {
  if (blogIds.length === 0) return [];
  return db
    .selectFrom('blog_tags')
    .innerJoin('tags', 'tags.id', 'blog_tags.tag_id')
    .select(['blog_tags.blog_id', 'tags.name'])
    .where('blog_tags.blog_id', 'in', blogIds)
    .orderBy('blog_tags.blog_id')
    .orderBy('blog_tags.position')
    .execute();
}

/**
 * Tags carried by posts everyone may see, most used first (then by key), whose key begins with
 * `prefix` (letters, digits and hyphens only: nothing LIKE reads as a wildcard); `indexable`
 * leaves out posts still on the spam hold (the sitemap).
 */
export async function usedTags(db: Db, options: { prefix?: string; limit: number; indexable?: boolean }) {
  let query = db
    .selectFrom('tags')
    .innerJoin('blog_tags', 'blog_tags.tag_id', 'tags.id')
    .innerJoin('blogs', 'blogs.id', 'blog_tags.blog_id')
    .where((eb) => blogShownToAll(eb))
    .select((eb) => ['tags.name', 'tags.key', eb.fn.count<number>('blog_tags.blog_id').as('posts')])
    .groupBy(['tags.id', 'tags.name', 'tags.key'])
    .orderBy('posts', 'desc')
    .orderBy('tags.key')
    .limit(options.limit);
  if (options.prefix) query = query.where('tags.key', 'like', `${options.prefix}%`);
  if (options.indexable) query = query.where('blogs.held_until', 'is', null);
  return (await query.execute()).map((row) => ({ ...row, posts: Number(row.posts) }));
}

export async function findTag(db: Db, key: string): Promise<{ key: string; name: string } | undefined> {
  return db.selectFrom('tags').select(['key', 'name']).where('key', '=', key).executeTakeFirst();
}
