import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

/** Inserts unless the (lower-cased) email is already there: false means already subscribed, race-free. */
export async function insertSubscriber(db: Kysely<Database>, row: { id: string; email: string; created_at: string }): Promise<boolean> {
  const result = await db
    .insertInto('subscribers')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
