import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { findJobs } from '~/kernel/jobs.repo.server';
import { createJobs } from './registry.server';
import { startJobRunner } from './runner.server';

describeOnDialects('the background worker on %s', (t) => {
  it('offers every periodic task once per period across instances and runs them', async () => {
    const jobs = createJobs(t.deps.config);
    expect(jobs.periodic.map((p) => p.name).sort()).toEqual(['exports-sweep', 'federation-handles', 'federation-remote-posts', 'imports-sweep', 'jobs-prune', 'mail-digest', 'notification-digest', 'notification-purge', 'spam-hold-release', 'upload-sweep']);
    const one = startJobRunner(t.deps, jobs, { worker: 'one', loop: false });
    const two = startJobRunner(t.deps, jobs, { worker: 'two', loop: false });
    const reports = await Promise.all([one.runBatch(), two.runBatch()]);
    expect(reports.reduce((n, r) => n + r.done, 0)).toBe(10);
    const rows = await findJobs(t.deps.database.db, {});
    expect(rows.map((r) => r.kind).sort()).toEqual(['every:exports-sweep', 'every:federation-handles', 'every:federation-remote-posts', 'every:imports-sweep', 'every:jobs-prune', 'every:mail-digest', 'every:notification-digest', 'every:notification-purge', 'every:spam-hold-release', 'every:upload-sweep']);
    expect(rows.every((r) => r.status === 'done' && r.attempts === 1)).toBe(true);
    // The same periods are not offered again by a later batch.
    await one.runBatch();
    expect(await findJobs(t.deps.database.db, {})).toHaveLength(10);
    await Promise.all([one.stop(), two.stop()]);
  });
});
