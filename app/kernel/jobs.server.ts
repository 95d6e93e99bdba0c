import type { z } from 'zod';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import * as repo from './jobs.repo.server';

/**
 * Background work as rows of one durable queue (docs/decisions/057): a job has a kind, a payload
 * its kind's zod schema checks, and a time to run. Workers claim due jobs in batches, run them,
 * and retry a failure with a growing wait until the kind's limit, when the job is dead (kept with
 * its last error for an operator). A job may run more than once (a worker dying after the work
 * but before the mark), so every handler is written to be run again safely.
 */

/** What a handler learns about the run besides its payload. */
export interface JobRun {
  id: string;
  kind: string;
  /** 1 on the first run. */
  attempt: number;
}

export interface JobDefinition<P = unknown> {
  kind: string;
  payload: z.ZodType<P>;
  run(ctx: ServiceContext, payload: P, job: JobRun): Promise<void>;
  /** Runs before the job is dead. */
  maxAttempts: number;
  /** The wait after the first failure; it doubles with each further one, up to MAX_BACKOFF_MS. */
  retryMs: number;
  /**
   * How many jobs of this kind one worker runs at once (1: one after another). For work that
   * mostly waits on another server, as a delivery does (docs/decisions/082).
   */
  concurrency: number;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
const DEFAULT_RETRY_MS = 10_000;
/** The longest wait between two runs, however many failed before. */
export const MAX_BACKOFF_MS = 6 * 3600_000;

/** A job kind with its payload's schema and its handler; listed once in server/jobs/registry.server.ts. */
export function defineJob<P>(def: {
  kind: string;
  payload: z.ZodType<P>;
  run: (ctx: ServiceContext, payload: P, job: JobRun) => Promise<void>;
  maxAttempts?: number;
  retryMs?: number;
  concurrency?: number;
}): JobDefinition<P> {
  return { maxAttempts: DEFAULT_MAX_ATTEMPTS, retryMs: DEFAULT_RETRY_MS, concurrency: 1, ...def };
}

export interface EnqueueOptions {
  /** Makes the enqueue idempotent: a second job with the same key is not made. */
  key?: string;
  /** Not before this time (default: now). */
  runAt?: Date;
}

/**
 * Queues a job: one INSERT, so it costs a request nothing to speak of and may be called inside
 * the transaction of the change it follows (it then commits with it, or not at all). Answers
 * false when a job with this key exists already. The payload is checked here, so a bad one fails
 * its caller instead of a worker later.
 */
export async function enqueueJob<P>(ctx: Pick<ServiceContext, 'db' | 'now'>, job: Pick<JobDefinition<P>, 'kind' | 'payload'>, payload: P, options: EnqueueOptions = {}): Promise<boolean> {
  const checked = job.payload.parse(payload);
  const now = ctx.now().toISOString();
  return repo.insertJob(ctx.db, {
    id: newId(),
    kind: job.kind,
    payload: JSON.stringify(checked),
    key: options.key ?? null,
    run_at: options.runAt ? options.runAt.toISOString() : now,
    created_at: now,
  });
}

/** The kinds a worker knows: every job it may claim must be in it. */
export class JobRegistry {
  private readonly byKind = new Map<string, JobDefinition<any>>();
  constructor(definitions: readonly JobDefinition<any>[]) {
    for (const def of definitions) {
      if (this.byKind.has(def.kind)) throw new Error(`job kind "${def.kind}" is defined twice`);
      this.byKind.set(def.kind, def);
    }
  }
  get(kind: string): JobDefinition<unknown> | undefined {
    return this.byKind.get(kind);
  }
  get kinds(): string[] {
    return [...this.byKind.keys()];
  }
}

export interface JobBatchReport {
  claimed: number;
  done: number;
  retry: number;
  dead: number;
  released: number;
}

export interface JobBatchOptions {
  worker: string;
  limit: number;
  /** How long a claim holds before another worker may take the job over. */
  leaseMs: number;
  /** Asked before each job: true hands the rest of the batch back. */
  stopping?: () => boolean;
  /** Told of each job that failed (for the failure counter of /metrics). */
  onFailure?: (kind: string, outcome: 'retry' | 'dead') => void;
}

const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Claims one batch of due jobs and runs them: jobs of a kind with a `concurrency` above 1 first,
 * kind by kind, beside each other up to that many at once; then the one-at-a-time kinds, each
 * alone. The database hands the claimed rows back in no set order,
 * so without the grouping a one-at-a-time job between two deliveries would make them wait in turn.
 */
export async function runJobBatch(ctx: ServiceContext, registry: JobRegistry, options: JobBatchOptions): Promise<JobBatchReport> {
  const { worker } = options;
  const claimedAt = ctx.now().getTime();
  // No job is started in the last quarter of the lease: once it ends another worker may take the
  // job, and both would run it. What is left goes back to the queue.
  const startBefore = claimedAt + options.leaseMs * 0.75;
  const jobs = await repo.claimDue(ctx.db, ctx.dialect, {
    now: new Date(claimedAt).toISOString(),
    lockedUntil: new Date(claimedAt + options.leaseMs).toISOString(),
    worker,
    limit: options.limit,
  });
  const report: JobBatchReport = { claimed: jobs.length, done: 0, retry: 0, dead: 0, released: 0 };
  const limitOf = (kind: string) => Math.max(1, registry.get(kind)?.concurrency ?? 1);
  const parallelFirst = (a: repo.ClaimedJob, b: repo.ClaimedJob) =>
    Number(limitOf(a.kind) === 1) - Number(limitOf(b.kind) === 1) || (limitOf(a.kind) > 1 && limitOf(b.kind) > 1 ? a.kind.localeCompare(b.kind) : 0);
  const ordered = jobs.toSorted(parallelFirst);
  const running = new Set<Promise<void>>();
  for (const [index, job] of ordered.entries()) {
    const limit = limitOf(job.kind);
    while (running.size >= limit) await Promise.race(running);
    if (options.stopping?.() || ctx.now().getTime() > startBefore) {
      await Promise.all(running);
      const left = ordered.slice(index).map((j) => j.id);
      await repo.releaseClaims(ctx.db, worker, left);
      report.released = left.length;
      break;
    }
    const task: Promise<void> = runOne(ctx, registry, job, worker)
      .then((outcome) => {
        report[outcome]++;
        if (outcome !== 'done') options.onFailure?.(job.kind, outcome);
      })
      .finally(() => running.delete(task));
    running.add(task);
    if (limit === 1) await task;
  }
  await Promise.all(running);
  return report;
}

async function runOne(ctx: ServiceContext, registry: JobRegistry, job: repo.ClaimedJob, worker: string): Promise<'done' | 'retry' | 'dead'> {
  const log = ctx.log.child({ job: job.id, kind: job.kind, attempt: job.attempts });
  const dead = async (error: string) => {
    await repo.markDead(ctx.db, { id: job.id, worker, now: ctx.now().toISOString(), error });
    log.error({ error }, 'job: dead');
    return 'dead' as const;
  };
  const def = registry.get(job.kind);
  // An unknown kind or a payload its schema refuses will not get better by waiting.
  if (!def) return dead(`no handler for kind "${job.kind}"`);
  let payload: unknown;
  try {
    payload = def.payload.parse(JSON.parse(job.payload));
  } catch (error) {
    return dead(`payload refused: ${errorText(error)}`);
  }
  try {
    await def.run({ ...ctx, log }, payload, { id: job.id, kind: job.kind, attempt: job.attempts });
  } catch (error) {
    if (job.attempts >= def.maxAttempts) return dead(`gave up after ${job.attempts} attempts: ${errorText(error)}`);
    const wait = Math.min(MAX_BACKOFF_MS, def.retryMs * 2 ** Math.max(0, job.attempts - 1));
    await repo.markRetry(ctx.db, { id: job.id, worker, runAt: new Date(ctx.now().getTime() + wait).toISOString(), error: errorText(error) });
    log.warn({ err: error, retryInMs: wait }, 'job: failed; will retry');
    return 'retry';
  }
  await repo.markDone(ctx.db, { id: job.id, worker, now: ctx.now().toISOString() });
  return 'done';
}

/**
 * Runs batches until nothing is due: the command-line tools, and tests that want what a
 * change set in motion to have happened.
 */
export async function drainJobs(ctx: ServiceContext, registry: JobRegistry, options: Partial<JobBatchOptions> = {}): Promise<JobBatchReport> {
  const total: JobBatchReport = { claimed: 0, done: 0, retry: 0, dead: 0, released: 0 };
  for (;;) {
    const report = await runJobBatch(ctx, registry, { worker: 'drain', limit: 100, leaseMs: 60_000, ...options });
    for (const key of Object.keys(total) as (keyof JobBatchReport)[]) total[key] += report[key];
    if (report.claimed === 0 || report.done + report.dead === 0) return total;
  }
}

export interface JobKindStats {
  kind: string;
  /** Queued or running. */
  depth: number;
  /** Seconds the oldest due job has waited past its time (0 when none is due). */
  oldestAgeSeconds: number;
  dead: number;
}

/** Depth, age and dead count per kind, for /metrics. */
export async function jobStats(ctx: Pick<ServiceContext, 'db' | 'now'>): Promise<JobKindStats[]> {
  const now = ctx.now().getTime();
  const byKind = new Map<string, JobKindStats>();
  for (const row of await repo.statsByKind(ctx.db)) {
    let entry = byKind.get(row.kind);
    if (!entry) byKind.set(row.kind, (entry = { kind: row.kind, depth: 0, oldestAgeSeconds: 0, dead: 0 }));
    if (row.status === 'dead') {
      entry.dead += row.n;
      continue;
    }
    entry.depth += row.n;
    if (row.oldest) entry.oldestAgeSeconds = Math.max(entry.oldestAgeSeconds, Math.round((now - new Date(row.oldest).getTime()) / 1000));
  }
  return [...byKind.values()].sort((a, b) => a.kind.localeCompare(b.kind));
}

/** How long a finished job is kept: long enough for its key to stop a late duplicate. */
export const KEEP_DONE_MS = 2 * 86_400_000;

/** Forgets jobs that finished more than KEEP_DONE_MS ago (dead ones stay for an operator). */
export async function pruneDoneJobs(ctx: Pick<ServiceContext, 'db' | 'now'>): Promise<number> {
  return repo.deleteDoneBefore(ctx.db, new Date(ctx.now().getTime() - KEEP_DONE_MS).toISOString());
}
