import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghostMembersCsv, knownMembers } from '#test/archives/ghost-members';
import { TEST_DIALECTS } from '#test/dialects';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { IMPORT_TEXTS } from '~/lib/texts/imports';
import { confirmImport, getImportRun, importsDir, startImport, sweepImports } from './import-runs.service.server';
import { RUN_KEEP_DAYS } from './imports.schema';

const DAY = 86_400_000;
const exists = (file: string) => access(file).then(() => true, () => false);

/**
 * Runs nobody carries on are ended by the hourly sweep (docs/decisions/095), on both databases:
 * one left in review, one whose job is gone, and the archives of a deleted account's runs.
 */
describe.each(TEST_DIALECTS)('the import sweep on %s', (dialect) => {
  let t: TestApp;
  let writer: TestUser;
  const db = () => t.deps.database.db;
  const staged = async (runId: string) => (await db().selectFrom('import_staging').select('position').where('run_id', '=', runId).execute()).length;
  /** The sweep as the hourly job runs it, `days` after now. */
  const sweepAt = (days: number) => sweepImports({ ...t.context(null), now: () => new Date(Date.now() + days * DAY) }, t.deps.config);
  /** An uploaded archive where the screen keeps it, and its run scanned into review. */
  async function scanned(user: TestUser, name: string) {
    const dir = importsDir(t.deps.config.DATA_DIR);
    await mkdir(dir, { recursive: true });
    const filePath = path.join(dir, name);
    await writeFile(filePath, ghostMembersCsv(knownMembers()));
    const { runId } = await startImport(t.context(user.user), { fileName: name, filePath });
    await t.runJobs(new Date());
    return { runId, filePath };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    writer = await t.createUser({ name: 'Wren Waiting' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('expires a run left in review, with its staged rows and its archive, and the page says so', async () => {
    const { runId, filePath } = await scanned(writer, 'left-in-review.csv');
    expect((await getImportRun(t.context(writer.user), runId)).status).toBe('review');
    expect(await staged(runId)).toBe(5);

    expect(await sweepAt(RUN_KEEP_DAYS - 1)).toBe(0);
    expect(await staged(runId)).toBe(5);
    expect(await exists(filePath)).toBe(true);

    expect(await sweepAt(RUN_KEEP_DAYS + 1)).toBe(1);
    expect(await getImportRun(t.context(writer.user), runId)).toMatchObject({ status: 'failed', error: IMPORT_TEXTS.expired(RUN_KEEP_DAYS) });
    expect(await staged(runId)).toBe(0);
    expect(await exists(filePath)).toBe(false);
    // Too late to confirm: nothing is queued.
    await expect(confirmImport(t.context(writer.user), runId, {})).rejects.toMatchObject({ code: 'conflict' });
    expect(await db().selectFrom('jobs').select('id').where('key', 'like', `import:${runId}:write:%`).execute()).toEqual([]);
  });

  it('fails a run whose job is gone, and its job, if it ever comes, writes nothing', async () => {
    const { runId, filePath } = await scanned(writer, 'stopped.csv');
    await confirmImport(t.context(writer.user), runId, {});
    // Its write job never runs (as if dead with its process): the run stays queued.
    expect(await sweepAt(RUN_KEEP_DAYS + 1)).toBe(1);
    expect(await getImportRun(t.context(writer.user), runId)).toMatchObject({ status: 'failed', error: IMPORT_TEXTS.stopped(RUN_KEEP_DAYS) });
    expect(await staged(runId)).toBe(0);
    expect(await exists(filePath)).toBe(false);
    await t.runJobs();
    expect(await db().selectFrom('subscribers').select('email').execute()).toEqual([]);
    expect((await getImportRun(t.context(writer.user), runId)).status).toBe('failed');
  });

  it("removes a deleted account's archives after an hour, and keeps those a run names", async () => {
    const leaver = await t.createUser({ name: 'Lee Leaving' });
    const left = await scanned(leaver, 'leaver.csv');
    const kept = await scanned(writer, 'kept.csv');
    // The account's row goes, its runs and their staged rows with it by cascade (as better-auth's delete does).
    await db().deleteFrom('user').where('id', '=', leaver.user.id).execute();
    expect(await staged(left.runId)).toBe(0);

    // A file no run names may be an upload whose run is being made: it waits an hour.
    await sweepAt(0);
    expect(await exists(left.filePath)).toBe(true);
    await sweepAt(2 / 24);
    expect(await exists(left.filePath)).toBe(false);
    expect(await exists(kept.filePath)).toBe(true);
    expect((await getImportRun(t.context(writer.user), kept.runId)).status).toBe('review');
  });
});
