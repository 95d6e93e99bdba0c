import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database, ProfilesTable } from '~/db/schema';

type Db = Kysely<Database>;

export type ProfileRow = ProfilesTable;

export async function findProfile(db: Db, userId: string): Promise<ProfileRow | undefined> {
  return db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The account's own values (better-auth's user table), the fallback under the stored profile. */
export async function findAccount(db: Db, userId: string) {
  return db.selectFrom('user').select(['id', 'name', 'email', 'image']).where('id', '=', userId).executeTakeFirst();
}

/** The account with everything of it (sessions, sign-in methods, profile) by ON DELETE CASCADE. */
export async function deleteAccount(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('user').where('id', '=', userId).execute();
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
  changes: Partial<Pick<ProfileRow, 'name' | 'photo' | 'last_login_at' | 'uid'>> & { updated_at: string },
): Promise<number> {
  const result = await db.updateTable('profiles').set(changes).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A person as the site shows them, read through their id whenever they are shown: the stored
 * profile's name and photo over the account's (spec §3, as withStoredProfile), never a copy
 * (docs/decisions/022). Correlated subqueries by primary key, so a list keeps its index-served
 * plan and reads one profile and one account per row it shows.
 */
export function shownName(userIdColumn: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce((select p.name from profiles p where p.user_id = ${sql.ref(userIdColumn)}), (select u.name from "user" u where u.id = ${sql.ref(userIdColumn)}))`;
}

export function shownPhoto(userIdColumn: string): RawBuilder<string | null> {
  return sql<string | null>`coalesce((select p.photo from profiles p where p.user_id = ${sql.ref(userIdColumn)}), (select u.image from "user" u where u.id = ${sql.ref(userIdColumn)}))`;
}
