import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip, type ZipMember } from '#test/archives';
import { substackArchive, subscriberRows } from '#test/archives/substack';
import { bulkItems, knownItems, wxr } from '#test/archives/wordpress';
import { TEST_DIALECTS } from '#test/dialects';
import { jpegImage } from '#test/images';
import { afterglowExport, ghostArchive, markdownArchive } from '#test/import-archives';
import { tempDirs } from '#test/temp-dirs';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import type { DialectName } from '~/db/schema';
import { drainJobs, JobRegistry, runJobBatch } from '~/kernel/jobs.server';
import type { ReadersSignal } from '~/kernel/readers-busy.server';
import { loadConfig } from '../../../server/config.server';
import { type AppDeps, createDeps, serviceContext } from '../../../server/context.server';
import { createJobs } from '../../../server/jobs/registry.server';
import { createLogger } from '../../../server/logger.server';
import { openArchive } from './archive.server';
import { bundleItems, defaultCategoryMapping } from './imports.service.server';
import { readBundle } from './imports-readers.server';
import { confirmImport, getImportRun, importJobWith, startImport, WRITE_SLICE_MS } from './import-runs.service.server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

/** Every queued job is due at this time. */
const LATE = new Date('9999-12-31T00:00:00.000Z');
const POSTS = 9;

/** The site's own registry, its import job cut into parts of `sliceMs` (1: a part writes one item, or little more). */
function registryWith(deps: AppDeps, sliceMs: number, readers?: ReadersSignal): JobRegistry {
  const { registry } = createJobs(deps.config);
  return new JobRegistry(registry.kinds.map((kind) => (kind === 'import' ? importJobWith({ sliceMs, readers }) : registry.get(kind)!)));
}

const jobsCtx = (deps: AppDeps) => ({ ...serviceContext(deps, null), now: () => LATE });

/** The two archives: our own export (pictures, threaded comments, tags, old paths) and a Substack export (subscribers). */
async function archives() {
  const exported = await afterglowExport(POSTS);
  const posts = Array.from({ length: 6 }, (_, n) => ({ id: 300_000_000 + n, slug: `note-${n}`, title: `Note ${n}`, date: new Date(Date.UTC(2022, 0, 1 + n)).toISOString(), html: `<p>Note body ${n}, <em>short</em>.</p>` }));
  const substack: ZipMember[] = [...substackArchive(posts, subscriberRows(8))].map(([name, body]) => ({ name, body }));
  return { exported: exported.members, substack };
}

/** What an import left: posts, comments, old paths, tags, subscribers, ids and picture names aside. */
async function snapshot(t: TestApp, ownerId: string) {
  const db = t.deps.database.db;
  const ours = (text: string | null) => text?.replace(/\/uploads\/[0-9a-f-]{36}-\d+\.webp/g, '<our picture>') ?? null;
  const blogs = await db.selectFrom('blogs').selectAll().where('owner_id', '=', ownerId).orderBy('title').execute();
  const titleOf = new Map(blogs.map((b) => [b.id, b.title]));
  const comments = await db
    .selectFrom('comments')
    .innerJoin('remote_actors', 'remote_actors.id', 'comments.remote_actor_id')
    .select(['comments.blog_id', 'comments.depth', 'comments.comment_text', 'comments.commented_at', 'remote_actors.name'])
    .where('comments.blog_id', 'in', blogs.map((b) => b.id))
    .execute();
  const paths = await db.selectFrom('legacy_paths').select(['path', 'blog_id']).where('blog_id', 'in', blogs.map((b) => b.id)).execute();
  const tags = await db.selectFrom('blog_tags').innerJoin('tags', 'tags.id', 'blog_tags.tag_id').select(['blog_tags.blog_id', 'tags.name', 'blog_tags.position']).where('blog_tags.blog_id', 'in', blogs.map((b) => b.id)).execute();
  const subscribers = await db.selectFrom('subscribers').select(['email', 'confirmed_at']).orderBy('email').execute();
  return {
    blogs: blogs.map((b) => ({
      title: b.title, category: b.category, type: b.type, short: b.short_description, long: ours(b.long_description), details: b.details,
      availability: b.availability, photo: ours(b.photo), created: b.created_at, updated: b.updated_at, comments: b.comments_count,
    })),
    comments: comments.map((c) => [titleOf.get(c.blog_id), c.depth, c.name, c.comment_text, c.commented_at].join(' | ')).sort(),
    paths: paths.map((p) => `${p.path} → ${titleOf.get(p.blog_id)}`).sort(),
    tags: tags.map((g) => `${titleOf.get(g.blog_id)}: ${g.position} ${g.name}`).sort(),
    subscribers: subscribers.map((s) => `${s.email} ${s.confirmed_at === null ? 'pending' : 'confirmed'}`),
  };
}

/** A run's report with its post ids as titles (ids differ from one site to another). */
async function reportOf(t: TestApp, user: TestUser, runId: string) {
  const run = await getImportRun(t.context(user.user), runId);
  const titles = new Map((await t.deps.database.db.selectFrom('blogs').select(['id', 'title']).execute()).map((b) => [b.id, b.title]));
  return { status: run.status, done: run.done, total: run.total, report: run.report && { ...run.report, tags: run.report.tags.map((g) => ({ ...g, blogId: titles.get(g.blogId) })) } };
}

const writeParts = (t: TestApp, runId: string) => t.deps.database.db.selectFrom('jobs').select('key').where('key', 'like', `import:${runId}:write:%`).execute();
const staged = async (t: TestApp, runId: string) => (await t.deps.database.db.selectFrom('import_staging').select('position').where('run_id', '=', runId).execute()).length;

/**
 * An import written in many parts, with a restart between them, leaves what one part leaves
 * (docs/decisions/091): a later part reads only what the scan staged, never the archive's posts.
 */
describe.each(TEST_DIALECTS)('an import in parts on %s', (dialect: DialectName) => {
  let whole: TestApp;
  let parted: TestApp;
  beforeAll(async () => {
    [whole, parted] = await Promise.all([createTestApp(dialect), createTestApp(dialect)]);
  });
  afterAll(async () => {
    await whole?.close();
    await parted?.close();
  });

  it('writes the same posts, pictures, comments, old paths, tags, subscribers and report as one part; staged rows go when the run ends', async () => {
    const { exported, substack } = await archives();

    // One part each: the site's own job, with its two minutes.
    const ivy = await whole.createUser({ name: 'Ivy Importer' });
    const wholeRuns: string[] = [];
    for (const [name, members] of [['export.zip', exported], ['substack.zip', substack]] as const) {
      const { runId } = await startImport(whole.context(ivy.user), { fileName: name, filePath: await writeZip(dirs.make('whole-'), name, members) });
      await whole.runJobs();
      await confirmImport(whole.context(ivy.user), runId, {});
      await whole.runJobs();
      expect(await writeParts(whole, runId)).toHaveLength(1);
      wholeRuns.push(runId);
    }

    // Parts of a millisecond: a part writes an item or two, then hands over.
    const ivy2 = await parted.createUser({ name: 'Ivy Importer' });
    const partedRuns: string[] = [];
    const one = registryWith(parted.deps, 1);
    for (const [name, members] of [['export.zip', exported], ['substack.zip', substack]] as const) {
      const dir = dirs.make('parted-');
      const file = await writeZip(dir, name, members);
      const { runId } = await startImport(parted.context(ivy2.user), { fileName: name, filePath: file });
      await drainJobs(jobsCtx(parted.deps), one);
      const review = await getImportRun(parted.context(ivy2.user), runId);
      expect(review.status).toBe('review');
      expect(await staged(parted, runId)).toBe(review.total);
      // The archive now holds its pictures and nothing else: a part that read it again for its posts would find none.
      await writeZip(dir, name, members.filter((m) => !/\.(md|json|csv|html)$/.test(m.name)).concat({ name: 'note.txt', body: 'only pictures left' }));
      await confirmImport(parted.context(ivy2.user), runId, {});
      // The first part on this instance (a batch may take another job first)…
      for (let n = 0; n < 5 && (await getImportRun(parted.context(ivy2.user), runId)).done === 0; n++) await runJobBatch(jobsCtx(parted.deps), one, { worker: 'first', limit: 1, leaseMs: 60_000 });
      const midway = await getImportRun(parted.context(ivy2.user), runId);
      expect(midway.status).toBe('running');
      expect(midway.done).toBeGreaterThan(0);
      expect(midway.done).toBeLessThan(midway.total);
      // …what they wrote is no longer staged…
      expect(await staged(parted, runId)).toBe(midway.total - midway.done);
      // …then the rest on another process (a restart): nothing of the run is in memory.
      const config = loadConfig({ ...parted.scratch.env });
      const restarted = await createDeps(config, createLogger(config.LOG_LEVEL));
      try {
        await drainJobs(jobsCtx(restarted), registryWith(restarted, 1));
      } finally {
        await restarted.views.close();
        await restarted.database.close();
      }
      // Several parts wrote it: the first stopped midway (above) and the restarted process
      // ended it. How many parts that took depends on how fast the machine writes an item (a
      // part of 1 ms may take several quick subscribers), so it is not counted.
      expect((await getImportRun(parted.context(ivy2.user), runId)).done).toBe(midway.total);
      expect(await staged(parted, runId)).toBe(0);
      partedRuns.push(runId);
    }

    for (const [n, runId] of wholeRuns.entries()) {
      const wholeReport = await reportOf(whole, ivy, runId);
      expect(wholeReport.status).toBe('done');
      expect(await reportOf(parted, ivy2, partedRuns[n]!)).toEqual(wholeReport);
    }
    const wholeSnapshot = await snapshot(whole, ivy.user.id);
    expect(wholeSnapshot.blogs).toHaveLength(POSTS + 6);
    expect(wholeSnapshot.comments).toHaveLength(POSTS * 3);
    expect(wholeSnapshot.subscribers.length).toBeGreaterThan(0);
    expect(await snapshot(parted, ivy2.user.id)).toEqual(wholeSnapshot);
    await parted.runJobs();

    // The same archive again, in parts: nothing changes.
    const again = await startImport(parted.context(ivy2.user), { fileName: 'export.zip', filePath: await writeZip(dirs.make('again-'), 'export.zip', exported) });
    await drainJobs(jobsCtx(parted.deps), one);
    await confirmImport(parted.context(ivy2.user), again.runId, {});
    await drainJobs(jobsCtx(parted.deps), one);
    expect((await getImportRun(parted.context(ivy2.user), again.runId)).report!.posts).toEqual({ imported: 0, unchanged: POSTS, skipped: 0 });
    expect(await snapshot(parted, ivy2.user.id)).toEqual(wholeSnapshot);
  });

  /** Scans the archive to its review: the staged rows are those staging its whole bundle writes, in order (docs/decisions/095). */
  async function stagedAsWhole(name: string, file: string) {
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    const expected = [...bundleItems(bundle)].map((item) => ({ kind: item.kind, body: JSON.stringify(item.kind === 'post' ? item.post : null) }));
    expect(expected.length).toBeGreaterThan(2 * 200);

    const user = await whole.createUser({ name });
    const { runId } = await startImport(whole.context(user.user), { fileName: path.basename(file), filePath: file, keepFile: true });
    await whole.runJobs();
    const review = await getImportRun(whole.context(user.user), runId);
    expect(review).toMatchObject({ status: 'review', total: expected.length, scan: { posts: bundle.posts.length, skipped: bundle.skipped } });
    const rows = await whole.deps.database.db.selectFrom('import_staging').select(['position', 'kind', 'body']).where('run_id', '=', runId).orderBy('position').execute();
    expect(rows.map((r) => r.position)).toEqual(expected.map((_, n) => n));
    expect(rows.map(({ kind, body }) => ({ kind, body }))).toEqual(expected);
    return { user, runId, bundle };
  }

  it('stages a Jekyll site as it reads it, chunk by chunk: the rows are the whole bundle’s, in its order, and every post is written (docs/decisions/095)', async () => {
    const { user: jo, runId, bundle } = await stagedAsWhole('Jo Jekyll', await writeZip(dirs.make('jekyll-'), 'site.zip', await markdownArchive(450)));

    await confirmImport(whole.context(jo.user), runId, {});
    await whole.runJobs();
    const done = await getImportRun(whole.context(jo.user), runId);
    expect(done.status).toBe('done');
    expect(done.report!.posts.imported + done.report!.posts.skipped).toBe(bundle.posts.length);
    expect(await staged(whole, runId)).toBe(0);
  });

  it('stages a WordPress export as it reads it, its featured images and galleries resolved once the file is read: the rows are the whole bundle’s (docs/decisions/095)', async () => {
    // The attachments last in the file, as a hand-edited export may have them: every post that names one waits for the end.
    const bulk = bulkItems(450);
    const items = [...bulk.items, ...knownItems()];
    const xml = wxr([...items.filter((i) => i.type !== 'attachment'), ...items.filter((i) => i.type === 'attachment')]);
    const { bundle } = await stagedAsWhole('Wren Wordpress', await writeZip(dirs.make('wxr-'), 'export.zip', [{ name: 'export.xml', body: xml }]));
    expect(bundle.posts.filter((p) => p.cover).length).toBeGreaterThanOrEqual(bulk.covers);
  });

  it('gives way while readers are busy: it waits after each item and re-encodes pictures on one thread; calm, it goes at full speed (docs/decisions/097)', async () => {
    const { exported } = await archives();
    const full = sharp.concurrency();
    // The readers this run gives way to: busy until told otherwise. Each ask notes libvips' threads then.
    let busy = true;
    const threads: number[] = [];
    const readers: ReadersSignal = { start() {}, busy: () => (threads.push(sharp.concurrency()), busy) };
    const run = async (name: string, n: number) => {
      const ada = await whole.createUser({ name });
      // Posts and a picture of its own (none imported before, found again by its id or its hash): this run writes and encodes them.
      const photo = await jpegImage(1000 + n, 600);
      const ours = (text: string) => text.replaceAll('00000000-0000-4000-8000-', `0000000${n}-0000-4000-8000-`);
      const members = exported.map((m) => (m.name.startsWith('images/') ? { ...m, body: photo } : { ...m, name: ours(m.name), body: typeof m.body === 'string' ? ours(m.body) : m.body }));
      const { runId } = await startImport(whole.context(ada.user), { fileName: 'export.zip', filePath: await writeZip(dirs.make('busy-'), 'export.zip', members) });
      await whole.runJobs();
      await confirmImport(whole.context(ada.user), runId, {});
      threads.length = 0;
      await drainJobs(jobsCtx(whole.deps), registryWith(whole.deps, WRITE_SLICE_MS, readers));
      return getImportRun(whole.context(ada.user), runId);
    };

    const paced = await run('Ada Busy', 1);
    expect(paced).toMatchObject({ status: 'done', done: paced.total });
    expect(paced.report!.images.stored).toBe(1);
    // After each item the readers are asked whether to wait, and again while waiting: at least twice an item.
    expect(threads.length).toBeGreaterThanOrEqual(2 * paced.total);
    // Every ask after the first picture saw one thread.
    expect(threads.at(-1)).toBe(1);

    busy = false;
    const calm = await run('Ada Calm', 2);
    expect(calm).toMatchObject({ status: 'done', done: calm.total });
    expect(calm.report!.images.stored).toBe(1);
    // Asked once an item, and once a picture: no wait.
    expect(threads.length).toBeLessThan(2 * calm.total);
    expect(sharp.concurrency()).toBe(full);
  });

  it('stages a Ghost export as it reads it, its posts first in the file and their tags and authors resolved once it is read: the rows are the whole bundle’s (docs/decisions/095)', async () => {
    const archive = await ghostArchive(450);
    const [json, ...rest] = archive.members;
    const doc = JSON.parse(json!.body as string) as { db: { data: Record<string, unknown> }[] };
    const { posts, ...tables } = doc.db[0]!.data;
    doc.db[0]!.data = { posts, ...tables }; // as Ghost writes it
    const members = [{ ...json!, body: JSON.stringify(doc) }, ...rest];
    const { user, runId, bundle } = await stagedAsWhole('Gus Ghost', await writeZip(dirs.make('ghost-'), 'ghost.zip', members));
    expect(bundle.posts.filter((p) => p.tags.length && p.authorSourceId).length).toBeGreaterThan(400);
    // The review's mapping is read from the outlines, rewritten with the posts.
    const mapping = (await getImportRun(whole.context(user.user), runId)).scan!.categoryMapping;
    expect(mapping).toEqual(defaultCategoryMapping(bundle));
    expect(Object.keys(mapping).length).toBeGreaterThan(1);
  });
});
