import type { Kysely } from 'kysely';
import type { Database, ProfilesTable } from '~/db/schema';

type Db = Kysely<Database>;

export type ProfileRow = ProfilesTable;

export async function findProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** Every account (the home page's figures). */
export async function countAccounts(db: Db): Promise<number> {
  const row = await db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The account's own values (better-auth's user table), the fallback under the stored profile. */
export async function findAccount(db: Db, userId: string) {
  return db.selectFrom('user').select(['id', 'name', 'email', 'image']).where('id', '=', userId).executeTakeFirst();
}

/** The account with this email (any case), for the operator's command line. */
export async function findAccountByEmail(db: Db, email: string) {
  return db.selectFrom('user').select(['id', 'name', 'email', 'image']).where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase())).executeTakeFirst();
}

/** The account with everything of it (sessions, sign-in methods, profile) by ON DELETE CASCADE. */
export async function deleteAccount(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user').where('id', '=', userId).execute();
}

/** Other writers' blogs the person liked, commented on or liked a comment on (their counts move when the person goes). */
export async function blogsTouchedBy(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('likes')
    .select('blog_id')
    .where('user_id', '=', userId)
    .union(db.selectFrom('comments').select('blog_id').where('user_id', '=', userId))
    .union(db.selectFrom('comment_likes').innerJoin('comments', 'comments.id', 'comment_likes.comment_id').select('comments.blog_id').where('comment_likes.user_id', '=', userId))
    .execute();
  return rows.map((row) => row.blog_id);
}

/** Creates the row once; a row that exists is left as it is (the stored profile wins). */
export async function insertProfileIfMissing(db: Db, row: ProfileRow): Promise<boolean> {
  const result = await db
    .insertInto('profiles')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateProfile(
  db: Db,
  userId: string,
  changes: Partial<Pick<ProfileRow, 'name' | 'email' | 'photo' | 'last_login_at' | 'uid' | 'bio' | 'website' | 'links' | 'show_views'>> & { updated_at: string },
): Promise<number> {
  const result = await db.updateTable('profiles').set(changes).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** better-auth's `verification` identifier of a reset link is this prefix and the token. */
export const RESET_IDENTIFIER_PREFIX = 'reset-password:';

/** Deletes the user's reset links, but the one `keepId` names. */
export async function deleteResetLinks(db: Db, userId: string, keepId?: string): Promise<void> {
  let query = db.deleteFrom('verification').where('value', '=', userId).where('identifier', 'like', `${RESET_IDENTIFIER_PREFIX}%`);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}

/** When the account's password was last set (its credential row changed); null without one. */
export async function passwordSetAt(db: Db, userId: string): Promise<Date | null> {
  const row = await db.selectFrom('account').select('updatedAt').where('userId', '=', userId).where('providerId', '=', 'credential').executeTakeFirst();
  return row ? new Date(row.updatedAt) : null;
}

/** The account's passkeys, oldest first. */
export async function listPasskeys(db: Db, userId: string) {
  return db.selectFrom('passkey').select(['id', 'name', 'createdAt']).where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();
}
