import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { blogInput } from '#test/blog-inputs';
import { TEST_DIALECTS, useTestApp } from '#test/dialects';
import { jpegImage, webpImage } from '#test/images';
import type { TestUser } from '#test/test-app';
import { readZip, savedDownload, splitFrontMatter } from '#test/zip';
import { addComment, createBlog } from '~/features/blogs/blogs.service.server';
import { replyToComment } from '~/features/blogs/comments.service.server';
import { listExports, openExport, requestExport } from '~/features/exports/exports.service.server';
import { setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { setBlogTags, tagsOfBlogs } from '~/features/tags/tags.service.server';
import { openArchive } from './archive.server';
import { readBundle } from './imports-readers.server';
import { writeBundle } from './imports.service.server';
import { ImportOptionsSchema } from './imports.schema';

/** Our own uploads' addresses, which a move gives new names; everything else must come back byte for byte. */
const withoutUploads = (markdown: string) => markdown.replace(/\/uploads\/[^)\s"']+/g, '/uploads/…');

/**
 * Moving out and in again (docs/decisions/072, 074): a site exported by its admin and imported
 * into a fresh instance on the same database kind keeps every post's Markdown, dates,
 * category and tags, its pictures (stored again in the new store), its comments with their
 * threads, and its old address answering 301.
 */
describe.each(TEST_DIALECTS)('a site exported and imported again on %s', (dialect) => {
  const from = useTestApp(dialect);
  const to = useTestApp(dialect);
  let admin: TestUser;
  let writer: TestUser;
  let importer: TestUser;
  const posts: string[] = [];
  const body = (url: string, n: number) => `# Evening ${n}\n\nمرحبا بالغروب 🌅 — ünïcödé\n\n![The harbour](${url} "at dusk")\n\n\`\`\`js\nconst n = ${n};\n\`\`\`\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\ttabbed line  \nno newline at the end`;

  beforeAll(async () => {
    admin = await from.createUser({ name: 'Ada Admin' });
    writer = await from.createUser({ name: 'Wren Writer' });
    await setAdminByOperator(from.context(null), admin.user.email, true);
    const w = from.context(writer.user);
    const cover = await w.images.put(`${randomUUID()}-1600.webp`, await webpImage(), 'image/webp');
    const inline = await w.images.put(`${randomUUID()}-1600.webp`, await jpegImage(64, 48), 'image/jpeg');
    for (let n = 0; n < 5; n++) {
      const { insertedId } = await createBlog(w, blogInput({ title: `Evening number ${n}`, photo: cover, long_description: body(inline, n), category: n % 2 ? 'Travelling & Photography' : 'Personal', type: n % 2 ? 'Photo' : 'Mini blog', details: n === 1 ? 'Shot on film, at f/8.' : '', availability: n === 4 ? 'Hidden' : 'Public' }));
      await setBlogTags(w, insertedId, n % 2 ? ['harbour', 'Night-sky'] : ['harbour']);
      posts.push(insertedId);
    }
    await addComment(from.context(admin.user), posts[0]!, { commentText: 'Lovely light.' });
    const top = await from.deps.database.db.selectFrom('comments').select('id').where('blog_id', '=', posts[0]!).executeTakeFirstOrThrow();
    await replyToComment(w, top.id, { commentText: 'Thank you!' });
    importer = await to.createUser({ name: 'Ivy Importer' });
  });

  it('keeps every post, picture, tag, comment thread and old address', async () => {
    const asked = await requestExport(from.context(admin.user), from.deps.config, 'site');
    await from.runJobs(new Date());
    const view = (await listExports(from.context(admin.user), from.deps.config)).find((e) => e.id === asked.id)!;
    expect(view.status).toBe('ready');
    const [, , id, token] = view.downloadUrl!.split('/');
    const download = { file: await savedDownload(await openExport(from.context(admin.user), from.deps.config, id!, token!)) };

    const entries = await openArchive(download.file);
    const bundle = await readBundle(entries);
    expect(bundle.source).toBe('afterglow');
    const { report } = await writeBundle(to.context(importer.user), importer.user.id, bundle, entries, ImportOptionsSchema.parse({}));
    await entries.close();
    expect(report.posts).toEqual({ imported: 5, unchanged: 0, skipped: 0 });

    const fromDb = from.deps.database.db;
    const toDb = to.deps.database.db;
    const originals = await fromDb.selectFrom('blogs').selectAll().where('id', 'in', posts).execute();
    const copies = await toDb.selectFrom('blogs').selectAll().where('owner_id', '=', importer.user.id).execute();
    expect(copies).toHaveLength(5);
    const tagsBefore = await tagsOfBlogs(from.context(null), posts);
    const tagsAfter = await tagsOfBlogs(to.context(null), copies.map((c) => c.id));
    for (const original of originals) {
      const copy = copies.find((c) => c.title === original.title)!;
      expect(withoutUploads(copy.long_description)).toBe(withoutUploads(original.long_description));
      expect(copy.created_at).toBe(original.created_at);
      expect(copy.category).toBe(original.category);
      expect(copy.short_description).toBe(original.short_description);
      expect(copy.type).toBe(original.type);
      expect(copy.details ?? '').toBe(original.details ?? '');
      expect(copy.availability).toBe(original.availability);
      expect(tagsAfter.get(copy.id)).toEqual(tagsBefore.get(original.id));
      // The pictures live in the new store and answer there.
      expect(copy.photo).toMatch(/^\/uploads\//);
      expect((await to.request(copy.photo!)).status).toBe(200);
      const inline = /!\[The harbour\]\((\/uploads\/[^ )]+)/.exec(copy.long_description)![1]!;
      expect((await to.request(inline)).status).toBe(200);
      // The old address answers with the new one.
      const old = await to.request(`/blogs/${original.id}`, { redirect: 'manual' });
      if (copy.id !== original.id) {
        expect(old.status).toBe(301);
        expect(old.headers.get('location')).toContain(copy.id);
      }
    }

    const copyOfFirst = copies.find((c) => c.title === 'Evening number 0')!;
    const comments = await toDb.selectFrom('comments').selectAll().where('blog_id', '=', copyOfFirst.id).orderBy('depth').execute();
    expect(comments.map((c) => c.comment_text)).toEqual(['Lovely light.', 'Thank you!']);
    expect(comments[1]!.parent_id).toBe(comments[0]!.id);
    expect(comments[0]!.parent_id).toBeNull();

    // Importing the same export again changes nothing.
    const again = await openArchive(download.file);
    const second = await writeBundle(to.context(importer.user), importer.user.id, await readBundle(again), again, ImportOptionsSchema.parse({}));
    await again.close();
    expect(second.report.posts).toEqual({ imported: 0, unchanged: 5, skipped: 0 });

    // Moving on again: the new site's export carries the old addresses, so the next site answers them too.
    const onward = await requestExport(to.context(importer.user), to.deps.config, 'writer');
    await to.runJobs(new Date());
    const onwardView = (await listExports(to.context(importer.user), to.deps.config)).find((e) => e.id === onward.id)!;
    const [, , onwardId, onwardToken] = onwardView.downloadUrl!.split('/');
    const files = await readZip(await savedDownload(await openExport(to.context(importer.user), to.deps.config, onwardId!, onwardToken!)));
    const front = parse(splitFrontMatter(files.get(`posts/${copyOfFirst.id}.md`)!.toString()).front) as { aliases?: string[] };
    expect(front.aliases).toEqual([`/blogs/${posts[0]}`]);
  });
});
