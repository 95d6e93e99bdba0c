import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '#test/archives';
import { afterglowExport, ghostArchive, markdownArchive } from '#test/import-archives';
import { knownMediumStories, mediumArchive } from '#test/archives/medium';
import { knownSubstackPosts, SUBSTACK_SITE, substackArchive } from '#test/archives/substack';
import { knownItems, wxr } from '#test/archives/wordpress';
import { expectChunkedAsWhole, readStaged } from '#test/chunked-read';
import { tempDirs } from '#test/temp-dirs';
import { entriesOf, openArchive } from './archive.server';
import { readBundle } from './imports-readers.server';
import { defaultCategoryMapping } from './imports.service.server';
import { readGhost } from './sources/ghost.server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

describe('the Ghost reader', () => {
  it('reads a Ghost 5 export zip: html, mobiledoc and lexical bodies, placeholders, images, tags, authors, visibility', async () => {
    const archive = await ghostArchive(60);
    const file = await writeZip(dirs.make('ghost-'), 'ghost.zip', archive.members);
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    expect(bundle.source).toBe('ghost');
    expect(bundle.posts).toHaveLength(60); // the page is left out
    const byId = new Map(bundle.posts.map((p) => [p.sourceId, p]));
    const html = byId.get('ghost-post-0')!;
    expect(html.markdown).toContain('Body of Post number 0.');
    expect(html.markdown).not.toContain('__GHOST_URL__');
    expect(html.images).toEqual([{ ref: { kind: 'archive', path: 'content/images/2020/01/inline.png' }, inMarkdown: '/content/images/2020/01/inline.png' }]);
    expect(html.cover).toEqual({ kind: 'archive', path: 'content/images/2020/01/cover.jpg' });
    expect(html.tags).toEqual(['Travel']); // the internal #tag is not a topic
    expect(html.categories).toEqual(['Travel']);
    expect(html.authorSourceId).toBe('user-1');
    expect(html.oldPaths).toEqual(['/post-number-0/']);
    expect(byId.get('ghost-post-1')!.summary).toBe('A custom excerpt.');
    expect(byId.get('ghost-post-5')!.cover).toBeNull(); // missing from the archive, no site address to fetch it from
    expect(bundle.skipped).toContainEqual({ item: 'Post number 5: cover /content/images/2020/01/missing.jpg', reason: 'not in the archive, and no old address to fetch it from' });
    expect(byId.get('ghost-post-8')!.status).toBe('draft');
    expect(byId.get('ghost-post-9')!.visibility).toBe('members');
    const mobiledoc = byId.get('ghost-post-6')!;
    expect(mobiledoc.markdown).toContain('Plain and **bold**');
    expect(mobiledoc.markdown).toContain('## From a markdown card\n\n- one\n- two');
    expect(mobiledoc.images.map((i) => i.ref)).toEqual([{ kind: 'archive', path: 'content/images/2020/01/inline.png' }]);
    const lexical = byId.get('ghost-post-7')!;
    expect(lexical.markdown).toMatch(/## Lexical heading[\s\S]*_Italic words_[\s\S]*```js\nlet x = 1;\n```/);
    expect(byId.get('ghost-post-3')!.title).toContain('🌅');
    expect(byId.get('ghost-post-4')!.title).toContain('مرحبا');
    expect(bundle.authors).toEqual([{ sourceId: 'user-1', name: 'Gwen Ghost', email: 'gwen@old.example', bio: 'Writes.', avatar: null }]);
    expect(defaultCategoryMapping(bundle)).toEqual({ Travel: 'Travelling & Photography', Programming: 'Technology' });
  });

  it('reads the JSON alone, without the db wrapper; a site address makes missing images fetchable', async () => {
    const archive = await ghostArchive(3, { wrapper: false });
    const json = archive.members[0]!.body as string;
    const bundle = await readGhost(Buffer.from(json), { siteUrl: 'https://old.example' });
    expect(bundle.posts).toHaveLength(3);
    expect(bundle.posts[0]!.cover).toEqual({ kind: 'url', url: 'https://old.example/content/images/2020/01/cover.jpg' });
    expect(bundle.posts[0]!.markdown).toContain('https://old.example/content/images/2020/01/inline.png');
    await expect(readGhost(Buffer.from('{"nope":1}'))).rejects.toThrow(/not a Ghost export/);
    await expect(readGhost(Buffer.from('{broken'))).rejects.toThrow(/not valid JSON/);
  });
  it('reads the export as it comes: its posts handed on in chunks before or after the tables naming their tags and authors, what is staged is the whole bundle (docs/decisions/095)', async () => {
    const archive = await ghostArchive(453, { wrapper: false });
    const { data } = JSON.parse(archive.members[0]!.body as string) as { data: Record<string, unknown[]> };
    const { posts, ...tables } = data;
    // Ghost's own export puts its posts first; nothing says the tables naming their tags and authors come before or after.
    for (const order of [{ posts, ...tables }, { ...tables, posts }]) {
      const json = Buffer.from(JSON.stringify({ db: [{ meta: { version: '5.0.0' }, data: order }] }));
      const whole = await readGhost(json);
      expect(whole.posts).toHaveLength(453);
      const { staged, chunks, rewritten, rest } = await readStaged((options) => readGhost(json, options), 50);
      expect(chunks).toEqual(Array.from({ length: 9 }, () => 50));
      expect([...staged, ...rest.posts.map((p) => JSON.stringify(p))]).toEqual(whole.posts.map((p) => JSON.stringify(p)));
      expect({ ...rest, posts: [] }).toEqual({ ...whole, posts: [] });
      // The posts with tags or an author are read again, the others not.
      expect(rewritten).toEqual(whole.posts.slice(0, 450).flatMap((p, n) => (p.tags.length || p.authorSourceId ? [n] : [])));
      // Without a way to rewrite what it handed on, it hands nothing on.
      expect(await readGhost(json, { chunk: 50, onPosts: async () => expect.unreachable() })).toEqual(whole);
    }
  });

  it('refuses an export nested 10,000 deep as it reads it, zipped or alone', async () => {
    const deep = Buffer.from(`{"db":[{"data":{"posts":[{"id":"1","html":"x","extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}]}}]}`);
    await expect(readGhost(deep)).rejects.toThrow(/nests deeper than 64 levels/);
    const file = await writeZip(dirs.make('ghost-deep-'), 'ghost.zip', [{ name: 'ghost.json', body: deep.toString() }]);
    const entries = await openArchive(file);
    await expect(readBundle(entries)).rejects.toThrow(/nests deeper than 64 levels/);
    await entries.close();
  });
});

describe('the Markdown reader', () => {
  it('reads a Jekyll and Hugo site: YAML, TOML and JSON front matter, aliases, drafts, page bundles, broken files reported', async () => {
    const members = await markdownArchive(40);
    const file = await writeZip(dirs.make('md-'), 'site.zip', members);
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    expect(bundle.source).toBe('markdown');
    expect(bundle.posts).toHaveLength(43);
    expect(bundle.skipped).toContainEqual({ item: 'site/content/posts/broken.md', reason: expect.stringMatching(/^its front matter could not be read/) });
    expect(bundle.skipped).toContainEqual({ item: 'site/_posts/2018-03-01-jekyll-post-0.md: image /assets/img/missing.jpg', reason: 'not in the archive, and no old address to fetch it from' });
    const bySource = new Map(bundle.posts.map((p) => [p.sourceId, p]));
    const jekyll = bySource.get('_posts/2018-03-01-jekyll-post-0.md')!;
    expect(jekyll.title).toBe('Jekyll post 0');
    expect(jekyll.publishedAt).toBe('2018-03-01T10:00:00.000Z');
    expect(jekyll.categories).toEqual(['travel']);
    expect(jekyll.tags).toEqual(['desert', 'sand']);
    expect(jekyll.oldPaths.sort()).toEqual(['/old/jekyll-0/', '/travel/2018/03/01/jekyll-post-0.html']);
    expect(jekyll.images).toEqual([{ ref: { kind: 'archive', path: 'site/assets/img/photo.jpg' }, inMarkdown: '/assets/img/photo.jpg' }]); // the missing one is not found
    expect(jekyll.markdown).toContain('![gone](/assets/img/missing.jpg)');
    expect(bySource.get('_posts/2018-03-04-jekyll-post-3.md')!.status).toBe('draft');
    expect(bySource.get('_posts/2018-03-02-jekyll-post-1.md')!.title).toContain('🌅');
    expect(bySource.get('_posts/2018-03-03-jekyll-post-2.md')!.title).toContain('الصحراء');
    const toml = bySource.get('content/posts/toml-post.md')!;
    expect(toml).toMatchObject({ title: 'TOML post', summary: 'A Hugo summary.', tags: ['go', 'hugo'], categories: ['Technology'], publishedAt: '2021-05-06T07:08:09.000Z' });
    expect(toml.oldPaths.sort()).toEqual(['/2021/05/toml-post/', '/p/toml', '/posts/toml-post/']);
    expect(toml.images[0]!.ref).toEqual({ kind: 'archive', path: 'site/assets/img/photo.jpg' });
    expect(bySource.get('content/posts/json-post.md')).toMatchObject({ title: 'JSON post', status: 'draft', markdown: 'JSON front matter body.' });
    const bundlePost = bySource.get('content/posts/bundle/index.md')!;
    expect(bundlePost.oldPaths).toEqual(['/posts/bundle/']);
    expect(bundlePost.images[0]!.ref).toEqual({ kind: 'archive', path: 'site/content/posts/bundle/cover.png' });
  });

  it('hands its posts on in chunks as it reads them, keeping none it handed on (docs/decisions/095)', async () => {
    const file = await writeZip(dirs.make('md-'), 'site.zip', await markdownArchive(40));
    const entries = await openArchive(file);
    expect(await expectChunkedAsWhole((options) => readBundle(entries, options), 10)).toEqual([10, 10, 10, 10]);
    await entries.close();
  });
});

describe('the afterglow reader (our export read back)', () => {
  it('keeps each body byte for byte, images by their archive path, comments with their threads, aliases and the old address', async () => {
    const exported = await afterglowExport(4);
    const file = await writeZip(dirs.make('ag-'), 'export.zip', exported.members);
    const entries = await openArchive(file);
    const bundle = await readBundle(entries);
    await entries.close();
    expect(bundle.source).toBe('afterglow');
    expect(bundle.siteUrl).toBe('https://old.afterglow.example');
    for (const post of bundle.posts) expect(post.markdown).toBe(exported.bodies[post.sourceId]);
    const first = bundle.posts[0]!;
    expect(first.images).toEqual([{ ref: { kind: 'archive', path: `images/${exported.imageHash}.jpg` }, inMarkdown: `images/${exported.imageHash}.jpg` }]);
    expect(first.cover).toEqual({ kind: 'archive', path: `images/${exported.imageHash}.jpg` });
    expect(first.oldPaths).toEqual([`/blogs/${first.sourceId}`, '/old/0']);
    expect(first.categories).toEqual(['Food & Health']);
    expect(first.comments.map((c) => [c.sourceId, c.parentSourceId])).toEqual([
      ['c-0-1', null],
      ['c-0-2', 'c-0-1'],
      ['c-0-3', 'c-0-2'],
    ]);
    expect(bundle.posts[1]!.status).toBe('draft');
  });

  it('refuses an archive of no known format', async () => {
    await expect(readBundle(entriesOf({ 'notes/readme.txt': 'hello' }))).rejects.toThrow(/none of the formats this site imports/);
  });
});

describe('recognising the other platforms’ exports (docs/decisions/073)', () => {
  const zipOf = async (name: string, files: Map<string, Buffer | string>) =>
    openArchive(await writeZip(dirs.make('other-'), name, [...files].map(([path, body]) => ({ name: path, body }))));

  it('reads a WordPress export, given as its XML file or zipped', async () => {
    const xml = wxr(knownItems());
    const zipped = await zipOf('wordpress.zip', new Map([['export/site.WordPress.2026-11-26.xml', xml]]));
    const bundles = [await readBundle(zipped), await readBundle(entriesOf({ 'site.xml': xml }))];
    await zipped.close();
    for (const bundle of bundles) {
      expect(bundle.source).toBe('wordpress');
      expect(bundle.posts.length).toBeGreaterThan(0);
    }
  });

  it('reads a Substack export zip and a Medium export zip', async () => {
    const substack = await zipOf('substack.zip', substackArchive(knownSubstackPosts(), [{ email: 'reader@example.com', active_subscription: 'true', created_at: '2024-01-01T00:00:00Z' }]));
    const fromSubstack = await readBundle(substack, { siteUrl: SUBSTACK_SITE });
    await substack.close();
    expect(fromSubstack.source).toBe('substack');
    expect(fromSubstack.posts.length).toBeGreaterThan(0);
    expect(fromSubstack.posts.every((post) => post.oldPaths.every((path) => path.startsWith('/p/')))).toBe(true);

    const medium = await zipOf('medium.zip', mediumArchive(knownMediumStories()));
    const fromMedium = await readBundle(medium);
    await medium.close();
    expect(fromMedium.source).toBe('medium');
    expect(fromMedium.posts.length).toBeGreaterThan(0);
  });
});
