import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { requireRole } from '~/features/moderation/moderation.service.server';
import { defineJob, enqueueJob, type JobRun } from '~/kernel/jobs.server';
import { readersHere, type ReadersSignal } from '~/kernel/readers-busy.server';
import { assertCanWrite } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { IMPORT_TEXTS } from '~/lib/texts/imports';
import type { openArchive } from './archive.server';
import { ArchiveRefused, type ImportBundle, type ImportPost } from './import-model';
import { type ImportOptions, ImportOptionsSchema, RUN_KEEP_DAYS, type SiteAuthorChoice } from './imports.schema';
import * as repo from './imports.repo.server';
import { type AuthorPlan, type BundleOutline, checkAuthorChoices, outlineOf, planAuthors, resolveAuthors, unknownChoices } from './site-authors.service.server';
import { type BundleItem, bundleItems, bundleSize, type BundleToWrite, defaultCategoryMapping, type ImportReport, oldSiteName, subscribersLeftOut, writeBundle } from './imports.service.server';

/**
 * An import as a run of the job queue (docs/decisions/072). A run is first scanned (the archive
 * opened and read, nothing written) so the importer sees what came and the category mapping;
 * once confirmed it is written, in parts of at most WRITE_SLICE_MS each (a part never outlives
 * its job's lease: it queues the next, which carries on from the item it reached). The scan
 * stages what it read in the database (`import_staging`, docs/decisions/091), so a part reads
 * only the items left to it, on whichever instance it runs, and the archive is opened again
 * only for its pictures. The archive waits in the data folder until the run ends.
 */

/** What a scan found, shown before anything is written. */
export interface ImportScan {
  source: ImportBundle['source'];
  posts: number;
  subscribers: number;
  /** Of those, the ones that stay out: unsubscribed, bounced or deleted at the source (docs/decisions/090; absent in runs scanned before). */
  subscribersOut?: number;
  authors: { sourceId: string; name: string; email: string | null }[];
  categoryMapping: Record<string, string>;
  skipped: ImportBundle['skipped'];
  /** The old site's name, for a site import's subscribers (docs/decisions/095; absent in runs scanned before). */
  siteName?: string;
  /** A site import's authors with posts, each with her default choice (docs/decisions/083). */
  siteAuthors?: AuthorPlan[];
}

export interface ImportRunView {
  id: string;
  /** An admin's import of a whole site (its authors mapped onto accounts), not a writer's own. */
  site: boolean;
  fileName: string;
  status: 'scanning' | 'review' | 'queued' | 'running' | 'done' | 'failed';
  done: number;
  total: number;
  scan: ImportScan | null;
  report: ImportReport | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** How long one job writes before handing the rest to the next. */
export const WRITE_SLICE_MS = 120_000;
/** Progress is written at most this often (a bar polled every second or two needs no more). */
const PROGRESS_EVERY_MS = 500;
/** Items staged per statement (each its own short transaction), and read per query by a write part. */
const STAGE_ROWS = 200;
const READ_ROWS = 25;

const DAY = 86_400_000;
/** An archive in the imports folder that no run names (its account deleted, or the upload's run never made) goes after this long. */
const LEFTOVER_MS = 3600_000;
const SWEEP_RUNS = 100;

/** Where uploaded archives wait for their run. */
export const importsDir = (dataDir: string) => path.join(dataDir, 'imports');

interface Stored {
  scan?: ImportScan;
  /** What the scan staged: how many posts, subscribers and followed accounts, and each source author's posts (docs/decisions/091). */
  staged?: { posts: number; subscribers: number; follows?: number; postsByAuthor: BundleOutline['postsByAuthor'] };
  report?: ImportReport;
  /** The pictures the parts so far adopted (or could not have), by reference: a later part neither reads nor counts them again. */
  images?: Record<string, string | null>;
  error?: string;
  /** Ended by the sweep, not by its job (docs/decisions/095). */
  expired?: boolean;
}

const parse = (text: string | null): Stored => (text ? (JSON.parse(text) as Stored) : {});

function present(row: NonNullable<Awaited<ReturnType<typeof repo.findRun>>>): ImportRunView {
  const stored = parse(row.report);
  return {
    id: row.id,
    site: isSiteRun(row),
    fileName: row.file_name,
    status: row.status,
    done: row.done_items,
    total: row.total_items,
    scan: stored.scan ?? null,
    report: stored.report ?? null,
    error: stored.error ?? null,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

const notFound = () => new AppError('not_found', 'No such import.');

type RunRow = NonNullable<Awaited<ReturnType<typeof repo.findRun>>>;
const isSiteRun = (row: Pick<RunRow, 'options'>) => (JSON.parse(row.options) as { site?: boolean }).site === true;

/** A writer's own run she may see (a site import is on the admins' screen only). */
async function ownRun(ctx: ServiceContext, id: string) {
  const user = await assertCanWrite(ctx);
  const row = await repo.findRun(ctx.db, id);
  if (!row || row.owner_id !== user.id || isSiteRun(row)) throw notFound();
  return row;
}

/** A site import an admin may see: any admin's, since the site is theirs together. */
async function siteRun(ctx: ServiceContext, id: string) {
  await requireRole(ctx, 'admin');
  const row = await repo.findRun(ctx.db, id);
  if (!row || !isSiteRun(row)) throw notFound();
  return row;
}

/**
 * The import job with its parts' length (WRITE_SLICE_MS, or less for a test that wants a run in
 * many parts) and the readers it gives way to (the process's own, or a test's).
 */
export const importJobWith = (limits: { sliceMs: number; readers?: ReadersSignal }) =>
  defineJob({
    kind: 'import',
    payload: z.object({ runId: z.string(), phase: z.enum(['scan', 'write']), part: z.number().int().min(0) }),
    maxAttempts: 3,
    retryMs: 30_000,
    run: (ctx, payload, job) => runImportJob(ctx, payload, job, { sliceMs: limits.sliceMs, readersSignal: limits.readers ?? readersHere }),
  });

export const importJob = importJobWith({ sliceMs: WRITE_SLICE_MS });

type StartInput = { fileName: string; filePath: string; options?: Partial<ImportOptions>; confirmed?: boolean; keepFile?: boolean };

/**
 * Starts an import of the archive at `filePath` (already in the data folder, the run's from now
 * on) for the signed-in writer, into her own account. `confirmed`: written straight after the
 * scan with the default or given mapping (the command line); otherwise the run waits in
 * `review` for the importer.
 */
export async function startImport(ctx: ServiceContext, input: StartInput): Promise<{ runId: string }> {
  const user = await assertCanWrite(ctx);
  // A writer's import is hers alone: no author is mapped onto another account.
  return createRun(ctx, user.id, input, ImportOptionsSchema.parse({ ...input.options, site: false, authors: {}, authorChoices: {} }));
}

/** Only admins import a whole site: the screen asks before it reads an upload. */
export async function assertCanImportSite(ctx: ServiceContext): Promise<void> {
  await requireRole(ctx, 'admin');
}

/**
 * Starts an admin's import of a whole site (docs/decisions/083): like a writer's, but each source
 * author's posts go to the account her choice names (`options.authorChoices`, else the default
 * of `planAuthors`). An account named by email must exist.
 */
export async function startSiteImport(ctx: ServiceContext, input: StartInput): Promise<{ runId: string }> {
  const admin = await requireRole(ctx, 'admin');
  const options = ImportOptionsSchema.parse({ ...input.options, site: true, authors: {} });
  for (const choice of Object.values(options.authorChoices)) {
    if (choice.choice === 'account' && !(await repo.findAccountByEmail(ctx.db, choice.email))) throw new AppError('bad_request', `No account has the email ${choice.email}.`);
  }
  return createRun(ctx, admin.id, input, options);
}

async function createRun(ctx: ServiceContext, ownerId: string, input: StartInput, options: ImportOptions): Promise<{ runId: string }> {
  const now = ctx.now().toISOString();
  const id = newId();
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertRun(trx, {
      id,
      owner_id: ownerId,
      file_name: input.fileName.slice(0, 200),
      file_path: input.filePath,
      options: JSON.stringify({ ...options, confirmed: input.confirmed === true, keepFile: input.keepFile === true }),
      status: 'scanning',
      created_at: now,
      updated_at: now,
      finished_at: null,
      report: null,
    });
    await enqueueJob({ ...ctx, db: trx }, importJob, { runId: id, phase: 'scan', part: 0 }, { key: `import:${id}:scan` });
  });
  return { runId: id };
}

/** The importer confirms (and may change) the category mapping: the run is queued for writing. */
export async function confirmImport(ctx: ServiceContext, runId: string, mapping: ImportOptions['categories']): Promise<void> {
  await queueWrite(ctx, await ownRun(ctx, runId), { categories: mapping });
}

/** An admin confirms a site import: the category mapping and each author's choice (checked before anything is queued). */
export async function confirmSiteImport(ctx: ServiceContext, runId: string, input: { mapping: ImportOptions['categories']; authors: Record<string, SiteAuthorChoice> }): Promise<void> {
  const row = await siteRun(ctx, runId);
  const scan = parse(row.report).scan;
  if (row.status === 'review' && scan) await checkAuthorChoices(ctx, scan.siteAuthors ?? [], input.authors);
  await queueWrite(ctx, row, { categories: input.mapping, authorChoices: input.authors });
}

async function queueWrite(ctx: ServiceContext, row: RunRow, patch: Partial<ImportOptions>): Promise<void> {
  if (row.status !== 'review') throw new AppError('conflict', 'This import is not waiting for its mapping any more.');
  const runId = row.id;
  const options = { ...JSON.parse(row.options), ...patch };
  await ctx.db.transaction().execute(async (trx) => {
    // The sweep may have ended the run since it was read.
    if (!(await repo.updateRunIf(trx, runId, 'review', { status: 'queued', options: JSON.stringify(options), updated_at: ctx.now().toISOString() }))) {
      throw new AppError('conflict', 'This import is not waiting for its mapping any more.');
    }
    await enqueueJob({ ...ctx, db: trx }, importJob, { runId, phase: 'write', part: 0 }, { key: `import:${runId}:write:0` });
  });
}

export async function getImportRun(ctx: ServiceContext, runId: string): Promise<ImportRunView> {
  return present(await ownRun(ctx, runId));
}

export async function listMyImports(ctx: ServiceContext): Promise<ImportRunView[]> {
  const user = await assertCanWrite(ctx);
  return (await repo.listRuns(ctx.db, user.id, 10)).filter((row) => !isSiteRun(row)).map(present);
}

/** A site import, for an admin. */
export async function getSiteImportRun(ctx: ServiceContext, runId: string): Promise<ImportRunView> {
  return present(await siteRun(ctx, runId));
}

/** The admin's latest site imports. */
export async function listSiteImports(ctx: ServiceContext): Promise<ImportRunView[]> {
  const admin = await requireRole(ctx, 'admin');
  return (await repo.listRuns(ctx.db, admin.id, 10)).filter(isSiteRun).map(present);
}

/**
 * The archive's reader and the platforms' (a zip reader, an HTML-to-Markdown converter with its
 * DOM, YAML, TOML, CSV and XML parsers: about 1.5 MB of module source the heap keeps), loaded by
 * the first import run, not at start (docs/decisions/087).
 */
const readers = () => Promise.all([import('./archive.server'), import('./imports-readers.server')]);

/** Ends a run; the uploaded archive is removed (an operator's own file, named on the command line, is kept). */
async function finish(ctx: ServiceContext, run: { id: string; file_path: string; keepFile: boolean }, patch: { status: 'done' | 'failed'; report: Stored }) {
  const now = ctx.now().toISOString();
  await repo.updateRun(ctx.db, run.id, { status: patch.status, report: JSON.stringify(patch.report), updated_at: now, finished_at: now });
  await repo.dropStaged(ctx.db, run.id);
  if (!run.keepFile) await rm(run.file_path, { force: true });
}

/**
 * Ends the runs nobody will carry on (docs/decisions/095), with their staged rows and uploaded
 * archives: one left in review for RUN_KEEP_DAYS is expired, one scanning, queued or running that
 * has not moved for as long has lost its job and is failed. Then removes the archives in the
 * imports folder that no run names any more (a deleted account's runs went with it by cascade).
 * Answers how many runs it ended.
 */
export async function sweepImports(ctx: ServiceContext, settings: { DATA_DIR: string }): Promise<number> {
  const before = new Date(ctx.now().getTime() - RUN_KEEP_DAYS * DAY).toISOString();
  let ended = 0;
  for (const row of await repo.staleRuns(ctx.db, before, SWEEP_RUNS)) {
    const error = row.status === 'review' ? IMPORT_TEXTS.expired(RUN_KEEP_DAYS) : IMPORT_TEXTS.stopped(RUN_KEEP_DAYS);
    const now = ctx.now().toISOString();
    const report = JSON.stringify({ ...parse(row.report), images: undefined, error, expired: true } satisfies Stored);
    // Only if it still stands where it was found: a confirmation or a part may have just moved it.
    if (!(await repo.updateRunIf(ctx.db, row.id, row.status, { status: 'failed', report, updated_at: now, finished_at: now }))) continue;
    await repo.dropStaged(ctx.db, row.id);
    if (!(JSON.parse(row.options) as { keepFile?: boolean }).keepFile) await rm(row.file_path, { force: true });
    ended++;
  }
  const dir = importsDir(settings.DATA_DIR);
  const files = (await readdir(dir).catch(() => [] as string[])).map((name) => path.join(dir, name));
  const named = await repo.runFiles(ctx.db, files);
  for (const file of files.filter((f) => !named.has(f))) {
    const info = await stat(file).catch(() => null);
    if (info?.isFile() && ctx.now().getTime() - info.mtime.getTime() > LEFTOVER_MS) await rm(file, { force: true });
  }
  if (ended > 0) ctx.log.info({ ended }, 'import runs expired');
  return ended;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A post as the scan's summary reads it once it is staged (its author, categories and tags): its text is in its row. */
const outlineOfPost = (post: ImportPost): ImportPost => ({ ...post, markdown: '', summary: null, images: [], oldPaths: [], comments: [], own: undefined });

/**
 * Stages a scan's items for the write parts, a few hundred rows per statement with a turn of the
 * event loop between them (pages keep being answered while a large scan is stored). `posts` takes
 * the posts a reader hands on as it reads (docs/decisions/095), so the scan holds a chunk of them,
 * not the archive's text; `finish` stages the rest of the bundle (the posts not handed on, then
 * the subscribers and followed accounts), in the bundle's order, and answers the whole bundle as
 * the scan's summary reads it: the posts staged before in outline only. A scan run again writes
 * the same rows over the first's.
 */
function stager(ctx: ServiceContext, runId: string) {
  let rows: Parameters<typeof repo.stageItems>[1] = [];
  let position = 0;
  const outlined: ImportPost[] = [];
  const add = async (item: BundleItem) => {
    rows.push({ run_id: runId, position: position++, kind: item.kind, body: JSON.stringify(item.kind === 'post' ? item.post : item.kind === 'subscriber' ? item.subscriber : item.follow) });
    if (rows.length === STAGE_ROWS) {
      await repo.stageItems(ctx.db, rows);
      rows = [];
      await nextTurn();
    }
  };
  return {
    posts: async (posts: ImportPost[]) => {
      for (const post of posts) {
        await add({ kind: 'post', post });
        outlined.push(outlineOfPost(post));
      }
    },
    // The posts handed on are staged first, so a post's index in that order is its position, and in `outlined`.
    rewrite: async (indexes: number[], rewrite: (index: number, post: ImportPost) => ImportPost) => {
      await repo.stageItems(ctx.db, rows);
      rows = [];
      for (let at = 0; at < indexes.length; at += STAGE_ROWS) {
        const found = await repo.stagedAt(ctx.db, runId, indexes.slice(at, at + STAGE_ROWS));
        await ctx.db.transaction().execute(async (trx) => {
          for (const row of found) {
            const post = rewrite(row.position, JSON.parse(row.body) as ImportPost);
            outlined[row.position] = outlineOfPost(post); // Ghost's tags and author come with the rewrite
            await repo.restage(trx, runId, row.position, JSON.stringify(post));
          }
        });
        await nextTurn();
      }
    },
    finish: async (bundle: ImportBundle): Promise<{ whole: ImportBundle; staged: NonNullable<Stored['staged']> }> => {
      for (const item of bundleItems(bundle)) await add(item);
      await repo.stageItems(ctx.db, rows);
      rows = [];
      const whole = { ...bundle, posts: [...outlined, ...bundle.posts] };
      return { whole, staged: { posts: whole.posts.length, subscribers: whole.subscribers.length, follows: whole.remoteFollows?.length ?? 0, postsByAuthor: outlineOf(whole).postsByAuthor } };
    },
  };
}

/** A run's staged items as the writer reads them: a few rows at a time, from where the run stands. */
function stagedBundle(ctx: ServiceContext, runId: string, scan: ImportScan, staged: NonNullable<Stored['staged']>): BundleToWrite {
  const size = staged.posts + staged.subscribers + (staged.follows ?? 0);
  return {
    source: scan.source,
    skipped: scan.skipped,
    siteName: scan.siteName ?? '',
    size,
    items: async function* (from) {
      for (let at = from; at < size; ) {
        const rows = await repo.stagedItems(ctx.db, runId, at, READ_ROWS);
        for (const row of rows) {
          if (row.position >= size) return;
          yield { kind: row.kind, [row.kind]: JSON.parse(row.body) } as BundleItem;
        }
        if (rows.length < READ_ROWS) return;
        at = rows.at(-1)!.position + 1;
      }
    },
  };
}

async function runImportJob(ctx: ServiceContext, payload: { runId: string; phase: 'scan' | 'write'; part: number }, job: JobRun, { sliceMs, readersSignal }: { sliceMs: number; readersSignal: ReadersSignal }): Promise<void> {
  const row = await repo.findRun(ctx.db, payload.runId);
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const options = JSON.parse(row.options) as ImportOptions & { confirmed: boolean; keepFile: boolean };
  const ending = { id: row.id, file_path: row.file_path, keepFile: options.keepFile };
  const stored = parse(row.report);
  let archive: Awaited<ReturnType<typeof openArchive>> | null = null;
  try {
    const [{ DEFAULT_ARCHIVE_LIMITS, openArchive }, { readBundle }] = await readers();
    // The archive guards of every run (docs/decisions/072).
    archive = await openArchive(row.file_path, DEFAULT_ARCHIVE_LIMITS);
    if (payload.phase === 'scan') {
      // Staged as read where the reader hands its posts on (docs/decisions/095); `bundle` then has them in outline only.
      const staging = stager(ctx, row.id);
      const { whole: bundle, staged } = await staging.finish(await readBundle(archive, { siteUrl: options.siteUrl, onPosts: staging.posts, onRewrite: staging.rewrite }));
      const scan: ImportScan = {
        source: bundle.source,
        posts: bundle.posts.length,
        subscribers: bundle.subscribers.length,
        subscribersOut: subscribersLeftOut(bundle),
        authors: bundle.authors.map(({ sourceId, name, email }) => ({ sourceId, name, email })),
        categoryMapping: { ...defaultCategoryMapping(bundle), ...options.categories },
        skipped: bundle.skipped,
        siteName: oldSiteName(bundle),
        ...(options.site ? { siteAuthors: await planAuthors(ctx, outlineOf(bundle), options) } : {}),
      };
      const total = bundleSize(bundle);
      const next = options.confirmed ? 'queued' : 'review';
      await ctx.db.transaction().execute(async (trx) => {
        await repo.updateRun(trx, row.id, { status: next, source: scan.source, total_items: total, report: JSON.stringify({ scan, staged }), updated_at: ctx.now().toISOString() });
        if (options.confirmed) await enqueueJob({ ...ctx, db: trx }, importJob, { runId: row.id, phase: 'write', part: 0 }, { key: `import:${row.id}:write:0` });
      });
      return;
    }
    // A run scanned before its scan staged anything (a release ago) is staged now, once.
    if (!stored.scan || !stored.staged) {
      const bundle = await readBundle(archive, { siteUrl: options.siteUrl });
      stored.staged = (await stager(ctx, row.id).finish(bundle)).staged;
      stored.scan ??= { source: bundle.source, posts: bundle.posts.length, subscribers: bundle.subscribers.length, authors: outlineOf(bundle).authors, categoryMapping: {}, skipped: bundle.skipped };
      await repo.updateRun(ctx.db, row.id, { report: JSON.stringify(stored) });
    }
    const { scan, staged } = stored as Required<Pick<Stored, 'scan' | 'staged'>>;
    await repo.updateRun(ctx.db, row.id, { status: 'running', updated_at: ctx.now().toISOString() });
    let lastWrite = 0;
    // A site import's authors are resolved in every part: what an earlier part made is found again, not made twice.
    const outline: BundleOutline = { source: scan.source, authors: scan.authors, postsByAuthor: staged.postsByAuthor };
    const authors = options.site ? await resolveAuthors(ctx, { id: row.id, adminId: row.owner_id }, outline, options) : null;
    const result = await writeBundle(ctx, row.owner_id, stagedBundle(ctx, row.id, scan, staged), archive, authors ? { ...options, authors: authors.accounts } : options, {
      skipAuthors: authors?.skip,
      runId: row.id,
      start: row.done_items,
      report: stored.report,
      images: stored.images,
      deadline: Date.now() + sliceMs,
      // While readers are busy, each item is followed by a wait (docs/decisions/097).
      readers: readersSignal,
      progress: async (done) => {
        if (Date.now() - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = Date.now();
        await repo.updateRun(ctx.db, row.id, { done_items: done, updated_at: ctx.now().toISOString() });
      },
    });
    if (authors) {
      result.report.authors = authors.outcomes;
      if (payload.part === 0) for (const key of unknownChoices(outline, options.authorChoices)) result.report.skipped.push({ item: `the mapping of ${key}`, reason: 'no author in the archive has that id, email or name' });
    }
    if (result.finished) {
      await repo.updateRun(ctx.db, row.id, { done_items: result.done });
      await finish(ctx, ending, { status: 'done', report: { ...stored, images: undefined, report: result.report } });
      ctx.log.info({ run: row.id, posts: result.report.posts, images: result.report.images }, 'import done');
      return;
    }
    await ctx.db.transaction().execute(async (trx) => {
      await repo.updateRun(trx, row.id, { done_items: result.done, report: JSON.stringify({ ...stored, report: result.report, images: result.images }), updated_at: ctx.now().toISOString() });
      // What this part wrote is not read again.
      await repo.dropStaged(trx, row.id, result.done);
      const part = payload.part + 1;
      await enqueueJob({ ...ctx, db: trx }, importJob, { runId: row.id, phase: 'write', part }, { key: `import:${row.id}:write:${part}` });
    });
  } catch (error) {
    if (error instanceof ArchiveRefused || job.attempt >= importJob.maxAttempts) {
      await finish(ctx, ending, { status: 'failed', report: { ...stored, error: (error as Error).message } });
      ctx.log.warn({ run: row.id, err: error }, 'import failed');
      return;
    }
    throw error;
  } finally {
    await archive?.close();
  }
}
