import type { Kysely } from 'kysely';
import { claimLeased, type LeasedQueue, releaseLeased } from '~/db/shared-sql.server';
import type { Database, DialectName } from '~/db/schema';

type Db = Kysely<Database>;

export interface NewJob {
  id: string;
  kind: string;
  payload: string;
  key: string | null;
  run_at: string;
  created_at: string;
}

/** Inserts the job unless its key exists: false means it was made before. */
export async function insertJob(db: Db, job: NewJob): Promise<boolean> {
  const result = await db.insertInto('jobs').values(job).onConflict((oc) => oc.column('key').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
}

/**
 * Claims up to `limit` due jobs for one worker, as the mail queue claims its rows (decision 023):
 * queued jobs whose time has come, and jobs whose worker's lease ran out.
 */
export async function claimDue(db: Db, dialect: DialectName, q: { now: string; lockedUntil: string; worker: string; limit: number }): Promise<ClaimedJob[]> {
  const rows = await claimLeased<ClaimedJob>(db, dialect, JOBS, { now: q.now, leaseUntil: q.lockedUntil, worker: q.worker, limit: q.limit, returning: ['id', 'kind', 'payload', 'attempts'] });
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
}

const JOBS: LeasedQueue = { table: 'jobs', waiting: 'queued', claimed: 'running', dueAt: 'run_at', leaseUntil: 'locked_until' };

/** Only the worker holding the claim may settle it: a job taken over after a lost lease is the new worker's. */
const claimedBy = (db: Db, id: string, worker: string) => db.updateTable('jobs').where('id', '=', id).where('claimed_by', '=', worker).where('status', '=', 'running');

export async function markDone(db: Db, q: { id: string; worker: string; now: string }): Promise<void> {
  await claimedBy(db, q.id, q.worker).set({ status: 'done', finished_at: q.now, locked_until: null, last_error: null }).execute();
}

export async function markRetry(db: Db, q: { id: string; worker: string; runAt: string; error: string }): Promise<void> {
  await claimedBy(db, q.id, q.worker).set({ status: 'queued', run_at: q.runAt, locked_until: null, claimed_by: null, last_error: q.error.slice(0, 1000) }).execute();
}

export async function markDead(db: Db, q: { id: string; worker: string; now: string; error: string }): Promise<void> {
  await claimedBy(db, q.id, q.worker).set({ status: 'dead', finished_at: q.now, locked_until: null, last_error: q.error.slice(0, 1000) }).execute();
}

/** Hands a stopping worker's claimed rows back without counting an attempt. */
export function releaseClaims(db: Db, worker: string, ids: string[]): Promise<void> {
  return releaseLeased(db, JOBS, worker, ids);
}

/** Forgets finished jobs older than `before` (dead ones stay until an operator looks). */
export async function deleteDoneBefore(db: Db, before: string): Promise<number> {
  const result = await db.deleteFrom('jobs').where('status', '=', 'done').where('finished_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

export interface JobStatsRow {
  kind: string;
  status: string;
  n: number;
  oldest: string | null;
}

/** Counts per kind and status, with the oldest run_at of each (what /metrics reports). */
export async function statsByKind(db: Db): Promise<JobStatsRow[]> {
  const rows = await db
    .selectFrom('jobs')
    .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('run_at').as('oldest')])
    .where('status', 'in', ['queued', 'running', 'dead'])
    .groupBy(['kind', 'status'])
    .execute();
  return rows.map((r) => ({ kind: r.kind, status: r.status, n: Number(r.n), oldest: r.oldest === null ? null : String(r.oldest) }));
}

export async function findJobs(db: Db, q: { kind?: string; key?: string }) {
  let query = db.selectFrom('jobs').selectAll();
  if (q.kind) query = query.where('kind', '=', q.kind);
  if (q.key) query = query.where('key', '=', q.key);
  return query.orderBy('created_at').execute();
}
