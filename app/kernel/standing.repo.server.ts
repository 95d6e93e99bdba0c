import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

type Db = Kysely<Database>;

/** The user's restrictions still in force at `now` (until null: for good). */
export async function activeRestrictions(db: Db, userId: string, now: string) {
  return db
    .selectFrom('user_restrictions')
    .select(['kind', 'until', 'reason'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
    .execute();
}

/** When the account was made and whether a moderator approved it; undefined: no such user. */
export async function findAccountAge(db: Db, userId: string) {
  const row = await (db as unknown as Kysely<Database & { user: { createdAt: string | number } }>)
    .selectFrom('user')
    .leftJoin('account_approvals', 'account_approvals.user_id', 'user.id')
    .select(['user.createdAt', 'account_approvals.approved_at'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
  return row && { createdAt: new Date(row.createdAt), approvedAt: row.approved_at };
}
