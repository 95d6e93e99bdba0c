import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeZip } from '#test/archives';
import { describeOnDialects } from '#test/dialects';
import { afterglowExport, ghostArchive } from '#test/import-archives';
import { tempDirs } from '#test/temp-dirs';
import type { TestUser } from '#test/test-app';
import { getBlog } from '~/features/blogs/blogs.service.server';
import { entriesOf, openArchive } from './archive.server';
import { confirmImport, getImportRun, startImport } from './import-runs.service.server';
import type { ImportBundle } from './import-model';
import { readBundle } from './imports-readers.server';
import { defaultCategoryMapping, writeBundle } from './imports.service.server';
import { ImportOptionsSchema, NO_CATEGORY } from './imports.schema';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());
const options = (over: Record<string, unknown> = {}) => ImportOptionsSchema.parse(over);

/** The writer (docs/decisions/072) on both databases: rows, images, threads, 301s, idempotence. */
describeOnDialects('importing on %s', (t) => {
  let writer: TestUser;
  const db = () => t.deps.database.db;
  const blogsOf = (userId: string) => db().selectFrom('blogs').selectAll().where('owner_id', '=', userId).orderBy('created_at').execute();

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Ivy Importer' });
  });

  it('writes a Ghost archive: posts, images through our pipeline, old paths answering 301; a second import changes nothing', async () => {
    const archive = await ghostArchive(30);
    const file = await writeZip(dirs.make('imp-'), 'ghost.zip', archive.members);
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    const ctx = t.context(writer.user);
    const seen: number[] = [];
    const first = await writeBundle(ctx, writer.user.id, bundle, entries, options({ categories: { Travel: 'Personal' } }), { progress: async (done) => void seen.push(done) });
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(first.report.posts).toEqual({ imported: 30, unchanged: 0, skipped: 0 });
    // Two pictures in the archive, each stored once; the missing cover is reported.
    expect(first.report.images).toMatchObject({ stored: 2, missing: expect.any(Number) });
    expect(first.report.skipped.some((s) => /missing\.jpg/.test(s.item))).toBe(true);
    expect(first.report.categoryMapping).toEqual({ Travel: 'Personal', Programming: 'Technology' });
    // The duplicate slug: the second post's old path is taken, reported, the post itself imported.
    expect(first.report.skipped).toContainEqual({ item: 'Post number 7: old path /post-number-6/', reason: 'another post answers that path already' });

    const rows = await blogsOf(writer.user.id);
    expect(rows).toHaveLength(30);
    const zero = rows.find((r) => r.title === 'Post number 0')!;
    expect(zero.category).toBe('Personal');
    expect(zero.created_at).toBe('2019-01-01T00:00:00.000Z');
    expect(zero.photo).toMatch(/^\/uploads\/[0-9a-f-]{36}-\d+\.webp$/);
    expect(zero.long_description).toMatch(/!\[inline\]\(\/uploads\/[0-9a-f-]{36}-\d+\.webp\)/);
    expect(zero.long_description).not.toContain('/content/images/');
    expect(zero.short_description).toBe('Body of Post number 0.');
    expect(rows.find((r) => r.title === 'Post number 1')!.short_description).toBe('A custom excerpt.');
    expect(rows.find((r) => r.title === 'Post number 8')!.availability).toBe('Hidden'); // a draft
    expect(rows.find((r) => r.title === 'Post number 9')!.availability).toBe('Hidden'); // members-only
    const noCover = rows.find((r) => r.title === 'Post number 2')!;
    expect(noCover.photo).toMatch(/^\/uploads\//); // its first picture stands in
    expect((await getBlog(t.context(null), zero.id)).title).toBe('Post number 0');

    const moved = await t.request('/post-number-0/');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/blogs/${zero.id}`);
    expect((await t.request('/post-number-0')).headers.get('location')).toBe(`/blogs/${zero.id}`);
    expect((await t.request('/never-existed/')).status).toBe(404);

    const again = await writeBundle(ctx, writer.user.id, await readBundle(entries), entries, options());
    expect(again.report.posts).toEqual({ imported: 0, unchanged: 30, skipped: 0 });
    expect(await blogsOf(writer.user.id)).toHaveLength(30);
    await entries.close();
  });

  it('brings comments threaded as they were, by name only, without accounts', async () => {
    const exported = await afterglowExport(3);
    const file = await writeZip(dirs.make('imp-'), 'export.zip', exported.members);
    const entries = await openArchive(file);
    const owner = await t.createUser({ name: 'Ada Again' });
    const accountsBefore = (await db().selectFrom('user').select('id').execute()).length;
    const { report } = await writeBundle(t.context(owner.user), owner.user.id, await readBundle(entries), entries, options());
    await entries.close();
    expect(report.posts.imported).toBe(3);
    expect(report.comments.imported).toBe(9);
    expect((await db().selectFrom('user').select('id').execute()).length).toBe(accountsBefore);
    const rows = await blogsOf(owner.user.id);
    const post = rows.find((r) => r.title === 'Exported 0')!;
    // The body byte for byte, its picture now ours.
    const ours = post.long_description.match(/\/uploads\/[0-9a-f-]{36}-\d+\.webp/)![0];
    expect(post.long_description).toBe(exported.bodies['00000000-0000-4000-8000-000000000000']!.replaceAll(`images/${exported.imageHash}.jpg`, ours));
    expect(post.photo).toBe(ours);
    expect(post.category).toBe('Food & Health');
    expect(rows.find((r) => r.title === 'Exported 1')!.availability).toBe('Hidden');
    const comments = (await getBlog(t.context(null), post.id)).comments!;
    expect(comments.map((c) => [c.depth, c.userName, c.commentText])).toEqual([
      [0, 'Reader One', 'Top comment on 0'],
      [1, 'Ada Export', 'A reply'],
      [2, 'Reader Two', 'A reply to the reply'],
    ]);
    expect(comments[1]!.parentId).toBe(comments[0]!._id);
    expect((await db().selectFrom('blogs').select('comments_count').where('id', '=', post.id).executeTakeFirstOrThrow()).comments_count).toBe(3);
    // Its address on the old instance answers here.
    expect((await t.request('/blogs/00000000-0000-4000-8000-000000000000')).headers.get('location')).toBe(`/blogs/${post.id}`);
    expect((await t.request('/old/0')).headers.get('location')).toBe(`/blogs/${post.id}`);
  });

  it('skips one bad post with its reason and writes the rest; subscribers pending with a confirmation mail, or confirmed when consented', async () => {
    const owner = await t.createUser({ name: 'Bea Bad' });
    const bundle: ImportBundle = {
      source: 'markdown',
      siteUrl: null,
      authors: [],
      posts: [
        { sourceId: 'good-1', authorSourceId: null, title: 'Good one', markdown: 'Fine. More.', summary: null, status: 'published', visibility: 'public', publishedAt: '2020-01-01T00:00:00Z', updatedAt: null, categories: ['Cooking'], tags: ['soup', `${'long'.repeat(30)}`], cover: null, images: [], oldPaths: ['/good-1/'], comments: [] },
        { sourceId: 'bad-1', authorSourceId: null, title: 'Too long', markdown: 'x'.repeat(100_001), summary: null, status: 'published', visibility: 'public', publishedAt: null, updatedAt: null, categories: [], tags: [], cover: null, images: [], oldPaths: ['/bad-1/'], comments: [] },
        { sourceId: 'bad-2', authorSourceId: null, title: 'Broken picture', markdown: 'See ![x](pic.jpg)', summary: null, status: 'published', visibility: 'public', publishedAt: 'not a date', updatedAt: null, categories: [], tags: [], cover: null, images: [{ ref: { kind: 'archive', path: 'pic.jpg' }, inMarkdown: 'pic.jpg' }], oldPaths: [], comments: [] },
      ],
      subscribers: [
        { email: 'New@Reader.example', name: null, status: 'active', createdAt: '2020-01-01T00:00:00Z' },
        { email: 'gone@reader.example', name: null, status: 'unsubscribed', createdAt: null },
        { email: 'bounced@reader.example', name: null, status: 'bounced', createdAt: null },
      ],
      skipped: [{ item: 'a page', reason: 'pages are not posts' }],
    };
    const entries = entriesOf({ 'pic.jpg': 'not an image at all' });
    const { report } = await writeBundle(t.context(owner.user), owner.user.id, bundle, entries, options());
    expect(report.posts).toEqual({ imported: 2, unchanged: 0, skipped: 1 });
    expect(report.skipped).toContainEqual({ item: 'Too long', reason: 'its body is 100001 characters long, over the 100000 a post holds' });
    expect(report.skipped).toContainEqual({ item: 'Broken picture: image pic.jpg', reason: expect.any(String) });
    expect(report.skipped).toContainEqual({ item: 'a page', reason: 'pages are not posts' });
    // The report names the tags the post was given, not the source's: the one that does not fit is reported instead.
    expect(report.tags).toEqual([{ blogId: expect.any(String), names: ['soup'] }]);
    expect(report.skipped).toContainEqual({ item: `Good one: tag ${'long'.repeat(30)}`, reason: expect.stringContaining('not a tag this site can keep') });
    expect((await db().selectFrom('blog_tags').innerJoin('tags', 'tags.id', 'blog_tags.tag_id').select('tags.name').where('blog_tags.blog_id', '=', report.tags[0]!.blogId).execute()).map((r) => r.name)).toEqual(['soup']);
    // The post without a category became Personal, under the key that stands for all such posts.
    expect(report.categoryMapping).toEqual({ Cooking: 'Food & Health', [NO_CATEGORY]: 'Personal' });
    const titles = (await blogsOf(owner.user.id)).map((r) => r.title);
    expect(titles.sort()).toEqual(['Broken picture', 'Good one']);
    expect((await t.request('/bad-1/')).status).toBe(404); // nothing of the skipped post was written
    expect(report.subscribers).toEqual({ pending: 1, confirmed: 0, existing: 0, skipped: 2 });
    const subscriber = await db().selectFrom('subscribers').selectAll().where('email', '=', 'new@reader.example').executeTakeFirstOrThrow();
    expect(subscriber.confirmed_at).toBeNull();
    await t.runJobs(); // the confirmation is queued by mail, on the subscriber.pending event
    expect(await db().selectFrom('mail_queue').select('email').where('stream', '=', 'confirm').where('email', '=', 'new@reader.example').execute()).toHaveLength(1);
    expect(await db().selectFrom('subscribers').select('id').where('email', 'in', ['gone@reader.example', 'bounced@reader.example']).execute()).toEqual([]);

    const consented = await writeBundle(t.context(owner.user), owner.user.id, { ...bundle, posts: [], subscribers: [{ email: 'yes@reader.example', name: null, status: 'active', createdAt: null }] }, entries, options({ consented: true }));
    expect(consented.report.subscribers.confirmed).toBe(1);
    expect((await db().selectFrom('subscribers').select('confirmed_at').where('email', '=', 'yes@reader.example').executeTakeFirstOrThrow()).confirmed_at).not.toBeNull();
  });

  it('gives every post of a source without categories the one category the importer chose for them all', async () => {
    const owner = await t.createUser({ name: 'Nora None' });
    const post = (n: number, categories: string[] = []): ImportBundle['posts'][number] => ({
      sourceId: `none-${n}`, authorSourceId: null, title: `No category ${n}`, markdown: 'Words.', summary: null, status: 'published', visibility: 'public',
      publishedAt: null, updatedAt: null, categories, tags: [], cover: null, images: [], oldPaths: [], comments: [],
    });
    const bundle: ImportBundle = { source: 'substack', siteUrl: null, authors: [], posts: [post(1), post(2), post(3, ['  '])], subscribers: [], skipped: [] };
    // What the review shows: one line for all of them, Personal unless changed; a blank name is no name.
    expect(defaultCategoryMapping(bundle)).toEqual({ [NO_CATEGORY]: 'Personal' });
    const { report } = await writeBundle(t.context(owner.user), owner.user.id, bundle, entriesOf({}), options({ categories: { [NO_CATEGORY]: 'Technology' } }));
    expect(report.categoryMapping).toEqual({ [NO_CATEGORY]: 'Technology' });
    expect((await blogsOf(owner.user.id)).map((r) => r.category)).toEqual(['Technology', 'Technology', 'Technology']);
  });

  it('runs as a job: scanned, shown for review, written with progress; a hostile zip fails with nothing written', async () => {
    const owner = await t.createUser({ name: 'Jo Job' });
    const dir = dirs.make('job-');
    const archive = await ghostArchive(12, { idPrefix: 'job-' });
    const file = await writeZip(dir, 'ghost.zip', archive.members);
    const { runId } = await startImport(t.context(owner.user), { fileName: 'ghost.zip', filePath: file });
    await t.runJobs();
    const review = await getImportRun(t.context(owner.user), runId);
    expect(review).toMatchObject({ status: 'review', total: 12, done: 0, scan: { source: 'ghost', posts: 12, categoryMapping: { Travel: 'Travelling & Photography', Programming: 'Technology' } } });
    expect(await blogsOf(owner.user.id)).toEqual([]);
    await expect(getImportRun(t.context(writer.user), runId)).rejects.toMatchObject({ status: 404 });
    await confirmImport(t.context(owner.user), runId, { Travel: 'Personal', Programming: 'Technology' });
    await t.runJobs();
    const done = await getImportRun(t.context(owner.user), runId);
    expect(done).toMatchObject({ status: 'done', done: 12, total: 12, report: { posts: { imported: 12 } } });
    expect(new Set((await blogsOf(owner.user.id)).map((r) => r.category))).toEqual(new Set(['Personal', 'Technology']));

    const bomb = path.join(dir, 'bomb.zip');
    await writeZip(dir, 'bomb.zip', [
      { name: 'ghost.json', body: archive.members[0]!.body as string },
      {
        name: 'zeros.bin',
        body: () => {
          let left = 64;
          return new Readable({ read() { this.push(left-- > 0 ? Buffer.alloc(1024 * 1024) : null); } });
        },
      },
    ]);
    const copy = path.join(dir, 'bomb-copy.zip');
    await copyFile(bomb, copy);
    const hostile = await startImport(t.context(owner.user), { fileName: 'bomb.zip', filePath: copy, confirmed: true });
    await t.runJobs();
    const failed = await getImportRun(t.context(owner.user), hostile.runId);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/a zip bomb/);
    expect(await blogsOf(owner.user.id)).toHaveLength(12);
  });
});
