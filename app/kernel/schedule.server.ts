import { z } from 'zod';
import type { ServiceContext } from '~/lib/core/service-context';
import { defineJob, enqueueJob, type JobDefinition } from './jobs.server';

/**
 * Periodic work (docs/decisions/057): each task's time is cut into periods of `everyMs`, and
 * each period is one job keyed by the task and the period's start. Every instance offers the
 * current period's job; the key lets one of them make it, so a task runs once per period across
 * any number of instances, and a period missed while every instance was down is run when one
 * comes back.
 */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  job: JobDefinition<{ periodStart: string }>;
}

const periodPayload = z.object({ periodStart: z.iso.datetime() });

export function definePeriodic(def: {
  name: string;
  everyMs: number;
  run: (ctx: ServiceContext, period: { start: Date }) => Promise<void>;
  /** Runs before a period's job is dead; the next period tries afresh anyway. */
  maxAttempts?: number;
}): PeriodicTask {
  return {
    name: def.name,
    everyMs: def.everyMs,
    job: defineJob({
      kind: `every:${def.name}`,
      payload: periodPayload,
      maxAttempts: def.maxAttempts ?? 3,
      run: (ctx, { periodStart }) => def.run(ctx, { start: new Date(periodStart) }),
    }),
  };
}

/** The start of the period `now` falls in. */
export function periodStart(now: Date, everyMs: number): Date {
  return new Date(Math.floor(now.getTime() / everyMs) * everyMs);
}

/** Offers each task's current period; answers how many jobs this call made (the others existed). */
export async function offerPeriods(ctx: Pick<ServiceContext, 'db' | 'now'>, tasks: readonly PeriodicTask[]): Promise<number> {
  let made = 0;
  for (const task of tasks) {
    const start = periodStart(ctx.now(), task.everyMs);
    if (await enqueueJob(ctx, task.job, { periodStart: start.toISOString() }, { key: `${task.job.kind}:${start.toISOString()}`, runAt: start })) made++;
  }
  return made;
}
