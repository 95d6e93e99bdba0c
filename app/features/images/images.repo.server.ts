import { type Insertable, type Kysely, sql } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/** Every column that may hold the URL of an uploaded image (the wishlist's copy included). */
const IMAGE_COLUMNS = [
  ['blogs', 'photo'],
  ['blog_drafts', 'photo'],
  ['blog_revisions', 'photo'],
  ['wishlist', 'photo'],
  ['profiles', 'photo'],
  ['user', 'image'],
] as const;

/** Our stored names (image-store STORED_NAME) as they appear inside a blog's Markdown. */
const NAME_IN_TEXT = /[0-9a-f-]{36}-\d{2,4}\.webp/g;
const BODY_BATCH = 500;

/** Tables whose `long_description` is a body that may hold pictures: posts, drafts and past versions (docs/decisions/070). */
const BODY_TABLES = ['blogs', 'blog_drafts', 'blog_revisions'] as const;

/**
 * The images written into blog bodies (`![](…)`, docs/decisions/030). Only bodies that name a
 * `.webp` are read, a batch at a time in id order, so memory stays flat at any number of blogs.
 */
async function bodyImageNames(db: Db): Promise<string[]> {
  const names = new Set<string>();
  for (const table of BODY_TABLES) await bodyImageNamesOf(db, table, names);
  return [...names];
}

async function bodyImageNamesOf(db: Db, table: (typeof BODY_TABLES)[number], names: Set<string>): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom(table as 'blogs')
      .select(['id', 'long_description'])
      .where('long_description', 'like', '%.webp%')
      .where('id', '>', after)
      .orderBy('id')
      .limit(BODY_BATCH)
      .execute();
    for (const row of rows) for (const name of (row.long_description as string | null)?.match(NAME_IN_TEXT) ?? []) names.add(name);
    if (rows.length < BODY_BATCH) return;
    after = rows.at(-1)!.id;
  }
}

/** The distinct image URLs the database refers to, from every column above and from blog bodies. */
export async function referencedImageUrls(db: Db): Promise<string[]> {
  const urls: string[] = [];
  for (const [table, column] of IMAGE_COLUMNS) {
    // One table and column at a time, from the fixed list above (never from input).
    const rows = await db
      .selectFrom(table as 'blogs')
      .select(sql<string | null>`${sql.ref(column)}`.as('url'))
      .distinct()
      .where(sql.ref(column), 'like', '%.webp')
      .execute();
    for (const row of rows) if (row.url) urls.push(row.url);
  }
  urls.push(...(await bodyImageNames(db)));
  return urls;
}

/** An image's focal point, written once when it is uploaded (an image never changes). */
export async function insertImageFocus(db: Db, row: Insertable<Database['image_focus']>): Promise<void> {
  await db.insertInto('image_focus').values(row).onConflict((oc) => oc.column('image_id').doNothing()).execute();
}

export async function findImageFocus(db: Db, imageId: string) {
  return db.selectFrom('image_focus').select(['focus_x', 'focus_y']).where('image_id', '=', imageId).executeTakeFirst();
}

/** Forgets the focal points of images the sweep removed. */
export async function deleteImageFocus(db: Db, imageIds: string[]): Promise<void> {
  for (let at = 0; at < imageIds.length; at += BODY_BATCH) {
    await db.deleteFrom('image_focus').where('image_id', 'in', imageIds.slice(at, at + BODY_BATCH)).execute();
  }
}
