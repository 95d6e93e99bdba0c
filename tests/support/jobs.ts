import type { Kysely } from 'kysely';
import type { Database } from '~/db/schema';

/**
 * Waits until a running server's worker has run every background job due so far (a publish
 * announces from its "blog.published" job, a moment after the request answered).
 */
export async function waitForDueJobs(db: Kysely<Database>, timeoutMs = 30_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const now = new Date().toISOString();
    const due = await db
      .selectFrom('jobs')
      .select('id')
      .where((eb) => eb.or([eb('status', '=', 'running'), eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)])]))
      .execute();
    if (due.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${due.length} background jobs still due after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
