import type { Kysely, Selectable } from 'kysely';
import type { BlogsTable, Database, WishlistTable } from '~/db/schema';
import { blogShownToAll } from '~/db/shared-sql.server';

export type WishlistRow = Selectable<WishlistTable>;

/** A listed item with its blog's photo and focus, which apply while the item's copy is still that photo (decision 040). */
export type WishlistListRow = WishlistRow & Pick<Selectable<BlogsTable>, 'photo_focus' | 'photo_focus_x' | 'photo_focus_y'> & { blog_photo: string | null; blog_slug: string | null };
type Db = Kysely<Database>;

/** Inserts unless the user already has this blog (unique key): false means a duplicate, race-free. */
export async function insertWishlistItem(db: Db, row: WishlistRow): Promise<boolean> {
  const result = await db
    .insertInto('wishlist')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'blog_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findWishlistOwner(db: Db, id: string): Promise<{ user_id: string } | undefined> {
  return db.selectFrom('wishlist').select('user_id').where('id', '=', id).executeTakeFirst();
}

export async function deleteWishlistItem(db: Db, id: string, userId: string): Promise<number> {
  const result = await db.deleteFrom('wishlist').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A user's items whose blog they may still see, by the blogs' own visibility rule (Public, not
 * removed by a moderator, not waiting for one; or their own). The join with blogs is here on
 * purpose: a blog hidden or removed after it was added is gone for them, and filtering it row by row
 * through the blogs service would turn one query into one per item. Only the rule's columns are
 * read from blogs; what is shown is the copy stored on the wishlist row, as the product keeps it,
 * with the blog's photo focus when the copy is still the blog's photo (decision 040).
 */
function visibleItems(db: Db, userId: string) {
  return db
    .selectFrom('wishlist')
    .innerJoin('blogs', 'blogs.id', 'wishlist.blog_id')
    .where('wishlist.user_id', '=', userId)
    .where((eb) => eb.or([blogShownToAll(eb), eb('blogs.owner_id', '=', userId)]));
}

export async function listVisibleWishlistItems(db: Db, userId: string, offset: number, limit: number): Promise<WishlistListRow[]> {
  return visibleItems(db, userId)
    .selectAll('wishlist')
    .select(['blogs.photo as blog_photo', 'blogs.slug as blog_slug', 'blogs.photo_focus', 'blogs.photo_focus_x', 'blogs.photo_focus_y'])
    .orderBy('wishlist.created_at', 'desc')
    .orderBy('wishlist.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countVisibleWishlistItems(db: Db, userId: string): Promise<number> {
  const row = await visibleItems(db, userId).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listWishlistBlogIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('wishlist').select('blog_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.blog_id);
}
