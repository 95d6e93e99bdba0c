import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressObject, simpleParser } from 'mailparser';
import { parse } from 'yaml';
import { blogInput } from '#test/blog-inputs';
import { describeOnDialects, TEST_DIALECTS } from '#test/dialects';
import { jpegImage, webpImage } from '#test/images';
import { type LocalS3, startLocalS3 } from '#test/s3';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { readZip, savedDownload, splitFrontMatter } from '#test/zip';
import { addComment, createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { replyToComment } from '~/features/blogs/comments.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import { setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { addToWishlist } from '~/features/wishlist/wishlist.service.server';
import { AppError } from '~/lib/core/errors';
import type { ServiceContext } from '~/lib/core/service-context';
import { exportKey, exportsDir, listExports, openExport, requestExport, sweepExports } from './exports.service.server';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * What Ghost's importer (5.x and 6.x, data-importer.js and its posts/users importers) needs to
 * take a file: `{db:[{meta,data}]}`, a semver `meta.version`, posts whose slugs are unique (a
 * second one is dropped), bodies as mobiledoc with a cards array (else it imports a blank
 * document), and relations that point at rows in the file.
 */
function assertGhostImportable(file: unknown): { posts: any[]; tags: any[]; users: any[]; postsTags: any[]; postsAuthors: any[] } {
  const root = file as { db: { meta: { exported_on: number; version: string }; data: Record<string, any[]> }[] };
  expect(Object.keys(root)).toEqual(['db']);
  expect(Array.isArray(root.db)).toBe(true);
  const { meta, data } = root.db[0]!;
  expect(meta.version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(typeof meta.exported_on).toBe('number');
  for (const key of ['posts', 'tags', 'posts_tags', 'users', 'posts_authors']) expect(Array.isArray(data[key]), key).toBe(true);
  const { posts, tags, posts_tags: postsTags, users, posts_authors: postsAuthors } = data as Record<string, any[]>;
  expect(new Set(posts!.map((p) => p.slug)).size).toBe(posts!.length);
  for (const post of posts!) {
    expect(post.title.length).toBeGreaterThan(0);
    expect(post.slug).toMatch(/^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u);
    expect(['published', 'draft']).toContain(post.status);
    expect(post.type).toBe('post');
    const mobiledoc = JSON.parse(post.mobiledoc);
    expect(Array.isArray(mobiledoc.cards)).toBe(true);
    expect(mobiledoc.cards[0][0]).toBe('markdown');
    expect(mobiledoc.sections).toEqual([[10, 0]]);
    for (const key of ['created_at', 'updated_at']) expect(Number.isNaN(new Date(post[key]).getTime())).toBe(false);
    if (post.status === 'published') expect(Number.isNaN(new Date(post.published_at).getTime())).toBe(false);
    if (post.custom_excerpt) expect([...post.custom_excerpt].length).toBeLessThanOrEqual(300);
  }
  const postIds = new Set(posts!.map((p) => p.id));
  const userIds = new Set(users!.map((u) => u.id));
  const tagIds = new Set(tags!.map((t) => t.id));
  for (const user of users!) {
    expect(user.email).toContain('@');
    expect(user.slug.length).toBeGreaterThan(0);
    if (user.bio) expect([...user.bio].length).toBeLessThanOrEqual(200);
  }
  expect(new Set(users!.map((u) => u.slug)).size).toBe(users!.length);
  for (const r of postsAuthors!) expect(postIds.has(r.post_id) && userIds.has(r.author_id)).toBe(true);
  for (const r of postsTags!) expect(postIds.has(r.post_id) && tagIds.has(r.tag_id)).toBe(true);
  // Every post has its author (Ghost falls back to its owner otherwise).
  for (const post of posts!) expect(postsAuthors!.some((r) => r.post_id === post.id)).toBe(true);
  return { posts: posts!, tags: tags!, users: users!, postsTags: postsTags!, postsAuthors: postsAuthors! };
}

/** Exports, made by their job and read back file by file (docs/decisions/074). */
describeOnDialects('exports on %s', (t) => {
  let writer: TestUser;
  let reader: TestUser;
  let admin: TestUser;
  const ctx = (user: TestUser | null): ServiceContext => t.context(user?.user ?? null);
  const settings = () => t.deps.config;
  const cover = { bytes: Buffer.alloc(0), url: '' };
  const inline = { bytes: Buffer.alloc(0), url: '' };
  const ids: Record<'first' | 'hidden' | 'readers', string> = { first: '', hidden: '', readers: '' };
  const body = (url: string) => `# Dusk\n\nمرحبا بالغروب 🌅 — ünïcödé\n\n![The harbour](${url} "at dusk")\n\n---\nnot: front matter\n---\n\n<details>raw html stays</details>\n\ttabbed line  \nno newline at the end`;

  const store = async (bytes: Buffer) => ({ bytes, url: await ctx(null).images.put(`${randomUUID()}-1600.webp`, bytes, 'image/webp') });

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Wren Writer' });
    reader = await t.createUser({ name: 'Rafi Reader' });
    admin = await t.createUser({ name: 'Ada Admin' });
    await setAdminByOperator(ctx(null), admin.user.email, true);
    Object.assign(cover, await store(await webpImage()));
    // Another picture, different bytes.
    Object.assign(inline, await store(await jpegImage(64, 48)));

    ids.first = (await createBlog(ctx(writer), blogInput({ title: 'Dusk over the harbour', photo: cover.url, long_description: body(inline.url), details: 'Shot on film.' }))).insertedId;
    ids.hidden = (await createBlog(ctx(writer), blogInput({ title: 'Dusk over the harbour', availability: 'Hidden', photo: cover.url, long_description: 'Same title, same photo.' }))).insertedId;
    ids.readers = (await createBlog(ctx(reader), blogInput({ title: 'A reader writes too' }))).insertedId;

    await addComment(ctx(reader), ids.first, { commentText: 'Lovely light.' });
    const top = await t.deps.database.db.selectFrom('comments').select('id').where('blog_id', '=', ids.first).executeTakeFirstOrThrow();
    await replyToComment(ctx(writer), top.id, { commentText: 'Thank you!' });
    await addComment(ctx(writer), ids.readers, { commentText: 'My comment elsewhere.' });
    await addComment(ctx(admin), ids.readers, { commentText: 'Not about her.' });
    await likeBlog(ctx(writer), ids.readers);
    await addToWishlist(ctx(writer), { blogId: ids.readers, source: 'home' });
    await followWriter(ctx(writer), reader.user.id);
  });

  // The export's expiry is counted from when it is made: the runner's clock is now's, not the far future runJobs() uses by default.
  const runJobsNow = () => t.runJobs(new Date());

  /** Whether the export's zip is kept (in DATA_DIR/exports here, through the image store's private files). */
  const kept = async (id: string) => {
    const file = await ctx(null).images.files.openFile(exportKey(settings(), id));
    file?.body.destroy();
    return file !== null;
  };

  const made = async (user: TestUser, scope: 'writer' | 'site') => {
    const asked = await requestExport(ctx(user), settings(), scope);
    expect(asked.status).toBe('pending');
    await runJobsNow();
    const view = (await listExports(ctx(user), settings())).find((e) => e.id === asked.id)!;
    expect(view).toMatchObject({ status: 'ready', scope });
    const [, , id, token] = view.downloadUrl!.split('/');
    const download = await openExport(ctx(user), settings(), id!, token!);
    expect(download.size).toBe(view.sizeBytes);
    return { view, token: token!, files: await readZip(await savedDownload(download)) };
  };

  it("a writer's export holds her posts byte for byte, her images by hash, her comments with their threads and her own records", async () => {
    const { view, files } = await made(writer, 'writer');
    const names = [...files.keys()].sort();
    const coverPath = `images/${sha(cover.bytes)}.webp`;
    const inlinePath = `images/${sha(inline.bytes)}.webp`;
    expect(names).toEqual(
      ['authors.json', 'comments.json', 'follows.json', coverPath, inlinePath, 'likes.json', 'manifest.json', `posts/${ids.first}.md`, `posts/${ids.hidden}.md`, 'profile.json', 'remote-follows.json', 'wishlist.json'].sort(),
    );
    expect(JSON.parse(files.get('manifest.json')!.toString())).toMatchObject({ format: 'afterglow-export', version: 1, scope: 'writer', site: null });

    // Each image once, its bytes those stored, named by their hash.
    expect(sha(files.get(coverPath)!)).toBe(sha(cover.bytes));
    expect(files.get(inlinePath)!.equals(inline.bytes)).toBe(true);

    // The body byte for byte, our image's address turned into its place in the zip.
    const stored = await t.deps.database.db.selectFrom('blogs').selectAll().where('id', '=', ids.first).executeTakeFirstOrThrow();
    const { front, body: exported } = splitFrontMatter(files.get(`posts/${ids.first}.md`)!.toString('utf8'));
    expect(exported).toBe(stored.long_description.replace(inline.url, inlinePath));
    expect(Buffer.from(exported).equals(Buffer.from(body(inlinePath)))).toBe(true);
    expect(parse(front)).toEqual({
      id: ids.first,
      title: 'Dusk over the harbour',
      category: stored.category,
      type: stored.type,
      short_description: stored.short_description,
      details: 'Shot on film.',
      availability: 'Public',
      photo: coverPath,
      created_at: stored.created_at,
      updated_at: stored.updated_at,
      author_id: writer.user.id,
      tags: [],
    });
    expect(parse(splitFrontMatter(files.get(`posts/${ids.hidden}.md`)!.toString()).front)).toMatchObject({ availability: 'Hidden', photo: coverPath });

    // Comments under her posts (with the thread) and hers elsewhere; nobody else's elsewhere.
    const comments = JSON.parse(files.get('comments.json')!.toString()) as any[];
    expect(comments.map((c) => c.text).sort()).toEqual(['Lovely light.', 'My comment elsewhere.', 'Thank you!']);
    const top = comments.find((c) => c.text === 'Lovely light.');
    expect(top).toMatchObject({ blog_id: ids.first, parent_id: null, author_id: reader.user.id, author_name: 'Rafi Reader' });
    expect(comments.find((c) => c.text === 'Thank you!')).toMatchObject({ blog_id: ids.first, parent_id: top.id, author_id: writer.user.id, author_name: 'Wren Writer' });

    expect(JSON.parse(files.get('profile.json')!.toString())).toMatchObject({ id: writer.user.id, email: writer.user.email, name: 'Wren Writer' });
    expect(JSON.parse(files.get('authors.json')!.toString())).toEqual([expect.objectContaining({ id: writer.user.id, name: 'Wren Writer' })]);
    expect(JSON.parse(files.get('likes.json')!.toString())).toEqual([expect.objectContaining({ blog_id: ids.readers, title: 'A reader writes too' })]);
    expect(JSON.parse(files.get('wishlist.json')!.toString())).toEqual([expect.objectContaining({ blog_id: ids.readers })]);
    expect(JSON.parse(files.get('follows.json')!.toString())).toEqual([expect.objectContaining({ writer_id: reader.user.id, writer_name: 'Rafi Reader' })]);
    expect(JSON.parse(files.get('remote-follows.json')!.toString())).toEqual([]);

    // The link went to her by mail.
    const outbox = path.join(t.deps.config.DATA_DIR, 'outbox');
    const mails = await Promise.all((await readdir(outbox)).map(async (name) => simpleParser(await readFile(path.join(outbox, name)))));
    const mail = mails.find((m) => m.text?.includes(view.downloadUrl!));
    expect(mail?.subject).toBe('Your Afterglow export is ready');
    expect((mail?.to as AddressObject).value[0]!.address).toBe(writer.user.email);
  });

  it('only its owner downloads an export, with the right link, while it lasts; a second one waits for the first', async () => {
    const { view, token } = await made(writer, 'writer');
    const refused = async (p: Promise<unknown>) => {
      const error = await p.then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(error && (error as AppError).code === 'unauthenticated' ? 401 : 404);
    };
    await refused(openExport(ctx(reader), settings(), view.id, token));
    await refused(openExport(ctx(admin), settings(), view.id, token));
    await refused(openExport(ctx(null), settings(), view.id, token));
    await refused(openExport(ctx(writer), settings(), view.id, `${token.slice(0, -2)}AA`));
    await refused(openExport({ ...ctx(writer), now: () => new Date(Date.parse(view.expiresAt!) + 1000) }, settings(), view.id, token));

    // Over the API: a writer asks; a second while the first is being made is refused, nothing added.
    const ask = (user: TestUser, scope: string) => t.request('/api/exports', { method: 'POST', json: { scope }, headers: { cookie: user.cookie } });
    const first = await ask(reader, 'writer');
    expect(first.status).toBe(202);
    expect(await ask(reader, 'writer').then((r) => r.status)).toBe(409);
    expect(await ask(reader, 'site').then((r) => r.status)).toBe(403);
    expect(await ask(reader, 'everything').then((r) => r.status)).toBe(400);
    const listed = (await (await t.request('/api/exports', { headers: { cookie: reader.cookie } })).json()) as { status: string }[];
    expect(listed.map((e) => e.status)).toEqual(['pending']);
    expect(await t.request('/api/exports').then((r) => r.status)).toBe(401);
    await runJobsNow();
  });

  it("an admin's site export holds every post, author and comment, and a ghost.json Ghost's importer takes", async () => {
    const { files } = await made(admin, 'site');
    expect(JSON.parse(files.get('manifest.json')!.toString())).toMatchObject({ scope: 'site' });
    for (const id of Object.values(ids)) expect(files.has(`posts/${id}.md`)).toBe(true);
    expect(files.has('profile.json')).toBe(false);
    const authors = JSON.parse(files.get('authors.json')!.toString()) as { id: string }[];
    expect(authors.map((a) => a.id).sort()).toEqual([writer.user.id, reader.user.id, admin.user.id].sort());
    const comments = JSON.parse(files.get('comments.json')!.toString()) as { text: string }[];
    expect(comments.map((c) => c.text).sort()).toEqual(['Lovely light.', 'My comment elsewhere.', 'Not about her.', 'Thank you!']);

    const ghost = assertGhostImportable(JSON.parse(files.get('ghost.json')!.toString()));
    expect(ghost.posts).toHaveLength(3);
    const first = ghost.posts.find((p) => p.id === ids.first)!;
    const hidden = ghost.posts.find((p) => p.id === ids.hidden)!;
    // Two posts of one title get two slugs; the Hidden one is a draft.
    expect([first.slug, hidden.slug].sort()).toEqual(['dusk-over-the-harbour', 'dusk-over-the-harbour-2']);
    expect(hidden).toMatchObject({ status: 'draft', published_at: null });
    expect(first.status).toBe('published');
    expect(JSON.parse(first.mobiledoc).cards[0][1].markdown).toBe(body(inline.url));
    expect(first.html).toContain('<h1');
    expect(first.html).toContain('🌅');
    expect(first.feature_image).toBe(cover.url);
    // Its category is its primary tag; its author is hers.
    const tag = ghost.tags.find((g) => g.id === ghost.postsTags.find((r) => r.post_id === ids.first && r.sort_order === 0)!.tag_id)!;
    expect(tag.name).toBe(blogInput().category);
    expect(ghost.postsAuthors.find((r) => r.post_id === ids.first)!.author_id).toBe(writer.user.id);
    expect(ghost.users.find((u) => u.id === writer.user.id)).toMatchObject({ name: 'Wren Writer', email: writer.user.email });

    // Only an admin asks for one.
    const error = await requestExport(ctx(writer), settings(), 'site').catch((e: unknown) => e);
    expect((error as AppError).status).toBe(403);
  });

  it('the sweep deletes an export once its time is up, and files no export names after an hour', async () => {
    const { view } = await made(reader, 'writer');
    const dir = exportsDir(settings());
    const leftover = path.join(dir, `${randomUUID()}.zip.partial`);
    await writeFile(leftover, 'half a zip');
    const at = (iso: string, ms: number) => ({ ...ctx(null), now: () => new Date(Date.parse(iso) + ms) });

    // Before its time: it stays, and so does a leftover younger than an hour.
    expect(await sweepExports(ctx(null), settings())).toBe(0);
    expect((await kept(view.id)) && existsSync(leftover)).toBe(true);
    await sweepExports(at(view.expiresAt!, -1000), settings());
    expect(await kept(view.id)).toBe(true);
    // Past its time (the exports the tests above made go with it).
    expect(await sweepExports(at(view.expiresAt!, 1000), settings())).toBeGreaterThanOrEqual(1);
    expect(await kept(view.id)).toBe(false);
    expect((await listExports(ctx(reader), settings())).some((e) => e.id === view.id)).toBe(false);
    // The leftover went too: the clock is days past its last change.
    expect(existsSync(leftover)).toBe(false);
  });

  it("deleting her account deletes her exports and their files", async () => {
    const leaver = await t.createUser({ name: 'Leaving Soon' });
    await createBlog(ctx(leaver), blogInput({ title: 'Last words' }));
    const { view } = await made(leaver, 'writer');
    expect(await kept(view.id)).toBe(true);
    const gone = await t.request('/api/auth/delete-user', { method: 'POST', json: { password: leaver.password }, headers: { cookie: leaver.cookie } });
    expect(gone.status).toBe(200);
    await runJobsNow();
    expect(await kept(view.id)).toBe(false);
    expect(await t.deps.database.db.selectFrom('exports').select('id').where('user_id', '=', leaver.user.id).execute()).toEqual([]);
  });
});

/**
 * Several instances, one bucket (decision 092): the zip is kept in the S3-compatible store the
 * images use, so the link works on an instance other than the one that made it. On PostgreSQL
 * two instances share the database and the bucket, each with a disk of its own; on SQLite (one
 * instance by nature) the maker's own disk is emptied before the download.
 */
describe.each(TEST_DIALECTS)('exports kept in an S3-compatible bucket on %s', (dialect) => {
  let s3: LocalS3;
  let maker: TestApp;
  let other: TestApp;
  const apps: TestApp[] = [];
  const secret = { SESSION_SECRET: 'an export secret both instances share, 32+ characters' };

  beforeAll(async () => {
    s3 = await startLocalS3('afterglow-exports');
    maker = await createTestApp(dialect, { ...s3.env, ...secret });
    apps.push(maker);
    other = dialect === 'postgres' ? await createTestApp(dialect, { ...s3.env, ...secret, DATABASE_URL: maker.scratch.env.DATABASE_URL! }) : maker;
    if (other !== maker) apps.push(other);
  });
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await s3?.close();
  });

  const keys = async (app: TestApp) => {
    const names: string[] = [];
    for await (const file of app.context(null).images.files.listFiles('exports')) names.push(file.name);
    return names;
  };

  it('is streamed from the bucket by any instance while it lasts, and swept from it after', async () => {
    const writer = await maker.createUser({ name: 'Bo Bucket' });
    const photo = await maker.context(null).images.put(`${randomUUID()}-1600.webp`, await webpImage(), 'image/webp');
    const { insertedId } = await createBlog(maker.context(writer.user), blogInput({ title: 'Kept in the bucket', photo }));
    const asked = await requestExport(maker.context(writer.user), maker.deps.config, 'writer');
    await maker.runJobs(new Date());
    const view = (await listExports(maker.context(writer.user), maker.deps.config)).find((e) => e.id === asked.id)!;
    expect(view.status).toBe('ready');

    // In the bucket under a name the id alone does not give; nothing left on the maker's disk.
    const key = exportKey(maker.deps.config, view.id);
    expect(key).toMatch(new RegExp(`^exports/${view.id}\\.[0-9a-f]{32}\\.zip$`));
    expect(await keys(maker)).toEqual([key]);
    expect(existsSync(exportsDir(maker.deps.config)) ? await readdir(exportsDir(maker.deps.config)) : []).toEqual([]);
    if (other === maker) rmSync(exportsDir(maker.deps.config), { recursive: true, force: true });

    const [, , id, token] = view.downloadUrl!.split('/');
    const download = await openExport(other.context(writer.user), other.deps.config, id!, token!);
    expect(download.size).toBe(view.sizeBytes);
    const files = await readZip(await savedDownload(download));
    expect(splitFrontMatter(files.get(`posts/${insertedId}.md`)!.toString()).body).toBe(blogInput().long_description);
    expect([...files.keys()].filter((name) => name.startsWith('images/'))).toHaveLength(1);

    // A leftover no export names goes after an hour; the export itself when its time is up.
    const stray = path.join(mkdtempSync(path.join(tmpdir(), 'afterglow-stray-')), 'stray.zip');
    await writeFile(stray, 'half a zip');
    await other.context(null).images.files.putFile(`exports/${randomUUID()}.zip.partial`, stray, 'application/zip');
    const at = (ms: number) => ({ ...other.context(null), now: () => new Date(Date.now() + ms) });
    await sweepExports(at(0), other.deps.config);
    expect(await keys(other)).toHaveLength(2);
    await sweepExports(at(2 * 3_600_000), other.deps.config);
    expect(await keys(other)).toEqual([key]);
    expect(await sweepExports({ ...other.context(null), now: () => new Date(Date.parse(view.expiresAt!) + 1000) }, other.deps.config)).toBe(1);
    expect(await keys(maker)).toEqual([]);
    await expect(openExport(maker.context(writer.user), maker.deps.config, id!, token!)).rejects.toMatchObject({ status: 404 });
  });
});
