import { type Kysely, sql } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/** Every column that may hold the URL of an uploaded image (the wishlist's copy included). */
const IMAGE_COLUMNS = [
  ['blogs', 'photo'],
  ['wishlist', 'photo'],
  ['profiles', 'photo'],
  ['user', 'image'],
] as const;

/** The distinct image URLs the database refers to, from every column above. */
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
  return urls;
}
