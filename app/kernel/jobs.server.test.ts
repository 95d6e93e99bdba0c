import { expect, it } from 'vitest';
import { z } from 'zod';
import { describeOnDialects } from '#test/dialects';
import type { ServiceContext } from '~/lib/core/service-context';
import { emit, eventJobs, onEvent } from './events.server';
import { defineJob, drainJobs, enqueueJob, jobStats, JobRegistry, MAX_BACKOFF_MS, pruneDoneJobs, runJobBatch } from './jobs.server';
import { findJobs } from './jobs.repo.server';
import { definePeriodic, offerPeriods } from './schedule.server';

describeOnDialects('the job runner on %s', (t) => {
  const at = (iso: string): ServiceContext => ({ ...t.context(null), now: () => new Date(iso) });
  const rows = (kind: string) => findJobs(t.deps.database.db, { kind });

  it('runs a job with its typed payload once, and a key makes the enqueue idempotent', async () => {
    const seen: string[] = [];
    const greet = defineJob({ kind: 'test:greet', payload: z.object({ name: z.string() }), run: async (_ctx, { name }) => void seen.push(name) });
    const registry = new JobRegistry([greet]);
    const ctx = at('2026-12-01T10:00:00.000Z');
    expect(await enqueueJob(ctx, greet, { name: 'Dusk' }, { key: 'greet:dusk' })).toBe(true);
    expect(await enqueueJob(ctx, greet, { name: 'Dusk again' }, { key: 'greet:dusk' })).toBe(false);
    await expect(enqueueJob(ctx, greet, { name: 42 } as unknown as { name: string })).rejects.toThrow();
    expect(await drainJobs(ctx, registry)).toMatchObject({ claimed: 1, done: 1 });
    expect(seen).toEqual(['Dusk']);
    expect(await rows('test:greet')).toMatchObject([{ status: 'done', attempts: 1, key: 'greet:dusk' }]);
    expect(await drainJobs(ctx, registry)).toMatchObject({ claimed: 0 });
  });

  it('runs jobs of a kind with a concurrency beside each other, up to it, and a one-at-a-time kind alone', async () => {
    let active = 0;
    let most = 0;
    const crowded: string[] = [];
    const work = (name: string) => async () => {
      active++;
      most = Math.max(most, active);
      if (name === 'alone' && active > 1) crowded.push(name);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      if (name === 'alone' && active > 1) crowded.push(name);
      active--;
    };
    const wide = defineJob({ kind: 'test:wide', payload: z.object({ n: z.number() }), concurrency: 3, run: work('wide') });
    const alone = defineJob({ kind: 'test:alone', payload: z.object({ n: z.number() }), run: work('alone') });
    const registry = new JobRegistry([wide, alone]);
    const ctx = at('2026-12-01T11:00:00.000Z');
    for (let n = 0; n < 6; n++) await enqueueJob(ctx, wide, { n });
    for (let n = 0; n < 2; n++) await enqueueJob(ctx, alone, { n });
    expect(await runJobBatch(ctx, registry, { worker: 'w', limit: 20, leaseMs: 60_000 })).toMatchObject({ claimed: 8, done: 8 });
    expect(most).toBe(3);
    expect(crowded).toEqual([]);
    expect((await rows('test:wide')).every((r) => r.status === 'done')).toBe(true);
  });

  it('waits for run_at, retries a failure with a doubling wait, and gives up after the last attempt', async () => {
    let runs = 0;
    const flaky = defineJob({ kind: 'test:flaky', payload: z.object({}), maxAttempts: 3, retryMs: 1000, run: async () => {
        runs++;
        throw new Error('store away');
      },
    });
    const registry = new JobRegistry([flaky]);
    const start = Date.parse('2026-12-02T10:00:00.000Z');
    const ctxAt = (ms: number) => at(new Date(start + ms).toISOString());
    await enqueueJob(ctxAt(0), flaky, {}, { runAt: new Date(start + 500) });
    expect(await drainJobs(ctxAt(0), registry)).toMatchObject({ claimed: 0 });
    expect(await drainJobs(ctxAt(500), registry)).toMatchObject({ claimed: 1, retry: 1 });
    let [row] = await rows('test:flaky');
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'Error: store away' });
    expect(Date.parse(row!.run_at)).toBe(start + 500 + 1000);
    expect(await drainJobs(ctxAt(1499), registry)).toMatchObject({ claimed: 0 });
    expect(await drainJobs(ctxAt(1500), registry)).toMatchObject({ retry: 1 });
    [row] = await rows('test:flaky');
    expect(Date.parse(row!.run_at)).toBe(start + 1500 + 2000);
    expect(await drainJobs(ctxAt(3500), registry)).toMatchObject({ dead: 1 });
    [row] = await rows('test:flaky');
    expect(row).toMatchObject({ status: 'dead', attempts: 3 });
    expect(row!.last_error).toMatch(/^gave up after 3 attempts: Error: store away/);
    expect(runs).toBe(3);
    expect(await jobStats(ctxAt(3500))).toContainEqual({ kind: 'test:flaky', depth: 0, oldestAgeSeconds: 0, dead: 1 });
    expect(MAX_BACKOFF_MS).toBeGreaterThan(1000);
  });

  it('kills a job whose kind is unknown or whose stored payload its schema refuses, at once', async () => {
    const strict = defineJob({ kind: 'test:strict', payload: z.object({ n: z.number() }), run: async () => {} });
    const ctx = at('2026-12-03T10:00:00.000Z');
    await enqueueJob(ctx, strict, { n: 1 });
    await t.deps.database.db.updateTable('jobs').set({ payload: '{"n":"one"}' }).where('kind', '=', 'test:strict').execute();
    await enqueueJob(ctx, defineJob({ kind: 'test:orphan', payload: z.object({}), run: async () => {} }), {});
    expect(await drainJobs(ctx, new JobRegistry([strict]))).toMatchObject({ claimed: 2, dead: 2 });
    expect((await rows('test:strict'))[0]!.last_error).toMatch(/^payload refused/);
    expect((await rows('test:orphan'))[0]!.last_error).toBe('no handler for kind "test:orphan"');
  });

  it('lets two workers claim side by side without running any job twice, and takes over a dead worker’s job after its lease', async () => {
    const ran: number[] = [];
    const count = defineJob({ kind: 'test:count', payload: z.object({ i: z.number() }), run: async (_ctx, { i }) => void ran.push(i) });
    const registry = new JobRegistry([count]);
    const ctx = at('2026-12-04T10:00:00.000Z');
    for (let i = 0; i < 60; i++) await enqueueJob(ctx, count, { i });
    const worker = (name: string) => runJobBatch(ctx, registry, { worker: name, limit: 7, leaseMs: 60_000 });
    for (;;) {
      const reports = await Promise.all([worker('a'), worker('b'), worker('c')]);
      if (reports.every((r) => r.claimed === 0)) break;
    }
    expect(ran.sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i));

    // A worker that claimed and died: nobody else may take its job until the lease ends.
    await enqueueJob(ctx, count, { i: 99 });
    const claimedByDead = await t.deps.database.db
      .updateTable('jobs')
      .set({ status: 'running', claimed_by: 'dead', locked_until: '2026-12-04T10:05:00.000Z', attempts: 1 })
      .where('status', '=', 'queued')
      .returning('id')
      .execute();
    expect(claimedByDead).toHaveLength(1);
    expect(await drainJobs(at('2026-12-04T10:04:59.000Z'), registry)).toMatchObject({ claimed: 0 });
    expect(await drainJobs(at('2026-12-04T10:05:01.000Z'), registry)).toMatchObject({ claimed: 1, done: 1 });
    expect(ran.filter((i) => i === 99)).toHaveLength(1);
  });

  it('a stopping worker hands back what it has not started, without counting an attempt', async () => {
    const ran: number[] = [];
    const slow = defineJob({ kind: 'test:slow', payload: z.object({ i: z.number() }), run: async (_ctx, { i }) => void ran.push(i) });
    const ctx = at('2026-12-05T10:00:00.000Z');
    for (let i = 0; i < 3; i++) await enqueueJob(ctx, slow, { i });
    let asked = 0;
    const report = await runJobBatch(ctx, new JobRegistry([slow]), { worker: 'w', limit: 10, leaseMs: 60_000, stopping: () => ++asked > 1 });
    expect(report).toMatchObject({ claimed: 3, done: 1, released: 2 });
    expect((await rows('test:slow')).map((r) => [r.status, r.attempts]).sort()).toEqual([['done', 1], ['queued', 0], ['queued', 0]]);
  });

  it('delivers an event that committed to each subscriber once, each retried on its own; one rolled back is never seen', async () => {
    const mailed: string[] = [];
    let failNotes = 1;
    const notes: string[] = [];
    const subscriptions = [
      onEvent('follow.started', 'test-mail', async (_ctx, e) => void mailed.push(`${e.data.followerId}>${e.data.writerId}`)),
      onEvent('follow.started', 'test-notes', async (_ctx, e) => {
        if (failNotes-- > 0) throw new Error('not yet');
        notes.push(e.data.writerId);
      }, { retryMs: 1000 }),
      onEvent('follow.ended', 'test-mail', async () => void mailed.push('ended')),
    ];
    const registry = new JobRegistry(eventJobs(subscriptions));
    const ctx = at('2026-12-06T10:00:00.000Z');
    await expect(
      t.deps.database.db.transaction().execute(async (trx) => {
        await emit({ ...ctx, db: trx }, 'follow.started', { followerId: 'rolled', writerId: 'back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.deps.database.db.transaction().execute((trx) => emit({ ...ctx, db: trx }, 'follow.started', { followerId: 'reader', writerId: 'writer' }));
    await expect(emit(ctx, 'follow.started', { followerId: '', writerId: 'x' })).rejects.toThrow();

    expect(await drainJobs(ctx, registry)).toMatchObject({ done: 2, retry: 1 });
    expect(mailed).toEqual(['reader>writer']);
    expect(notes).toEqual([]);
    expect(await drainJobs(at('2026-12-06T10:00:01.000Z'), registry)).toMatchObject({ claimed: 1, done: 1 });
    expect(notes).toEqual(['writer']);
    expect(mailed).toEqual(['reader>writer']);
    expect(await rows('on:follow.started:test-mail')).toHaveLength(1);
    expect(() => eventJobs([subscriptions[0]!, subscriptions[0]!])).toThrow(/twice/);
  });

  it('makes each period of a periodic task once across instances, and prunes old finished jobs', async () => {
    let runs: string[] = [];
    const task = definePeriodic({ name: 'test-tick', everyMs: 5 * 60_000, run: async (_ctx, { start }) => void runs.push(start.toISOString()) });
    const registry = new JobRegistry([task.job]);
    const first = at('2026-12-07T10:03:00.000Z');
    const results = await Promise.all([offerPeriods(first, [task]), offerPeriods(first, [task]), offerPeriods(at('2026-12-07T10:04:59.000Z'), [task])]);
    expect(results.reduce((a, b) => a + b)).toBe(1);
    await drainJobs(first, registry);
    expect(runs).toEqual(['2026-12-07T10:00:00.000Z']);
    expect(await offerPeriods(at('2026-12-07T10:05:00.000Z'), [task])).toBe(1);
    await drainJobs(at('2026-12-07T10:05:00.000Z'), registry);
    expect(runs).toEqual(['2026-12-07T10:00:00.000Z', '2026-12-07T10:05:00.000Z']);

    runs = [];
    expect(await pruneDoneJobs(at('2026-12-09T10:04:00.000Z'))).toBeGreaterThanOrEqual(1);
    expect((await rows('every:test-tick')).map((r) => r.key)).toEqual(['every:test-tick:2026-12-07T10:05:00.000Z']);
  });
});
