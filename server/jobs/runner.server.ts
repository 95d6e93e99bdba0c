import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type JobBatchReport, type JobRegistry, runJobBatch } from '~/kernel/jobs.server';
import { offerPeriods, type PeriodicTask } from '~/kernel/schedule.server';
import { type AppDeps, serviceContext } from '../context.server';

/** The most jobs one batch claims. */
const BATCH_SIZE = 20;
/** A claim's lease: a job still running after it may be taken over by another worker. */
const LEASE_MS = 5 * 60_000;
/** How long the worker rests when nothing is due. */
const IDLE_MS = 1_000;
/** How often an instance offers the periodic tasks' current periods. */
const OFFER_EVERY_MS = 30_000;

/** Failures since start, per kind and outcome (the counter /metrics reports). */
export const jobFailures = new Map<string, number>();

export interface JobRunner {
  /** Runs one batch now (tests). */
  runBatch(): Promise<JobBatchReport>;
  /** Lets the job under way finish, hands the rest back, and ends the loop. */
  stop(): Promise<void>;
}

/**
 * The background worker of every instance (docs/decisions/057): offers the periodic tasks'
 * periods, claims due jobs and runs them, for as long as the process does. Any number of
 * instances may run one against the same database. A failing batch (database away) is logged and
 * tried again after a rest; it never touches a request.
 */
export function startJobRunner(deps: AppDeps, jobs: { registry: JobRegistry; periodic: readonly PeriodicTask[] }, options: { worker?: string; loop?: boolean } = {}): JobRunner {
  const log = deps.log.child({ module: 'jobs' });
  const worker = options.worker ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const ctx = serviceContext(deps, null, { log });
  let stopped = false;
  let wake: (() => void) | null = null;
  let lastOffer = 0;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wake = null));

  const runBatch = async () => {
    if (Date.now() - lastOffer >= OFFER_EVERY_MS) {
      lastOffer = Date.now();
      await offerPeriods(ctx, jobs.periodic);
    }
    const report = await runJobBatch(ctx, jobs.registry, {
      worker,
      limit: BATCH_SIZE,
      leaseMs: LEASE_MS,
      stopping: () => stopped,
      onFailure: (kind, outcome) => {
        const key = `${kind}\n${outcome}`;
        jobFailures.set(key, (jobFailures.get(key) ?? 0) + 1);
      },
    });
    if (report.retry + report.dead > 0) log.info({ worker, ...report }, `jobs: batch of ${report.claimed}: ${report.done} done, ${report.retry} to retry, ${report.dead} dead`);
    return report;
  };

  const loop =
    options.loop === false
      ? Promise.resolve()
      : (async () => {
          while (!stopped) {
            try {
              const report = await runBatch();
              if (report.claimed === 0 && !stopped) await rest(IDLE_MS);
            } catch (error) {
              log.warn({ err: error }, 'jobs: batch failed; will retry');
              if (!stopped) await rest(IDLE_MS * 5);
            }
          }
        })();

  return {
    runBatch,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
