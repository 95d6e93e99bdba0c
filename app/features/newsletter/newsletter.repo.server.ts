import type { Kysely } from 'kysely';
import type { Database, MailDelivery } from '~/db/schema';

type Db = Kysely<Database>;

/** Inserts unless the (lower-cased) email is already there: false means already subscribed, race-free. */
export async function insertSubscriber(
  db: Db,
  row: { id: string; email: string; created_at: string; confirmed_at: string | null; imported_from?: string; imported_by?: string; imported_site?: string | null },
): Promise<boolean> {
  const result = await db
    .insertInto('subscribers')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countConfirmedSubscribers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('subscribers')
    .where('confirmed_at', 'is not', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findSubscriber(db: Db, by: { id: string } | { email: string }) {
  const query = db.selectFrom('subscribers').select(['id', 'email', 'confirmed_at', 'delivery']);
  return ('id' in by ? query.where('id', '=', by.id) : query.where('email', '=', by.email.toLowerCase())).executeTakeFirst();
}

/** Sets confirmed_at once; false when there is no such subscriber. */
/** Whether the subscriber exists, and whether this call confirmed it (false: confirmed before). */
export async function confirmSubscriber(db: Db, id: string, now: string): Promise<{ exists: boolean; confirmedNow: boolean }> {
  const result = await db.updateTable('subscribers').set({ confirmed_at: now }).where('id', '=', id).where('confirmed_at', 'is', null).executeTakeFirst();
  return { exists: (await findSubscriber(db, { id })) !== undefined, confirmedNow: Number(result.numUpdatedRows) > 0 };
}

export async function deleteSubscriber(db: Db, id: string): Promise<void> {
  await db.deleteFrom('subscribers').where('id', '=', id).execute();
}

export async function setSubscriberDelivery(db: Db, id: string, delivery: MailDelivery): Promise<void> {
  await db.updateTable('subscribers').set({ delivery }).where('id', '=', id).execute();
}

/** Whether the account's email is one its owner proved (better-auth's emailVerified). */
export async function isEmailVerified(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user').select('emailVerified').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.emailVerified);
}
