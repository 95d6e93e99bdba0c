import { afterAll, describe, expect, it } from 'vitest';
import { closeMarkdownPool, renderMarkdown } from '~/features/blogs/markdown.server';
import { archiveEntries } from '#test/archives/entries';
import { billionLaughsXml, deepNestingXml, xxeXml } from '#test/archives/hostile';
import { bulkItems, knownItems, WXR_SITE, wxr } from '#test/archives/wordpress';
import { readStaged } from '#test/chunked-read';
import { ArchiveRefused, type ImportPost } from '../import-model';
import { autoParagraphs, expandShortcodes, readWordpress } from './wordpress.server';

afterAll(() => closeMarkdownPool());

const upload = (name: string) => `${WXR_SITE}/wp-content/uploads/2019/05/${name}`;
const post = (posts: ImportPost[], id: string) => posts.find((p) => p.sourceId === id)!;

describe('readWordpress: the known posts, field by field', async () => {
  const bundle = await readWordpress(Buffer.from(wxr(knownItems())));

  it('names the site and its authors', () => {
    expect(bundle.source).toBe('wordpress');
    expect(bundle.siteUrl).toBe(WXR_SITE);
    // The channel's title, not an item's: a whole site's import names it to its subscribers (docs/decisions/095).
    expect(bundle.siteTitle).toBe('Old Blog');
    expect(bundle.subscribers).toEqual([]);
    expect(bundle.authors).toEqual([
      { sourceId: 'ada', name: 'Ada Lovelace', email: 'ada@old-blog.example.com', bio: null, avatar: null },
      { sourceId: 'noor', name: 'نور الهدى', email: 'noor@old-blog.example.com', bio: null, avatar: null },
    ]);
  });

  it('reads a classic post: paragraphs, caption, gallery, video, unknown shortcode, code, featured image, comments', () => {
    expect(post(bundle.posts, '11')).toEqual({
      sourceId: '11',
      authorSourceId: 'ada',
      title: 'Three days in Rome & a gelato',
      markdown: [
        'We landed at dawn.  \nThe city was still asleep.',
        `![The Colosseum](${upload('colosseum.jpg')} "The Colosseum at dawn")`,
        `![](${upload('colosseum.jpg')})`,
        `![](${upload('forum.jpg')})`,
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        '\\[contact-form-7 id="5" title="Contact"\\]',
        '```python\nprint("ciao")\n```',
      ].join('\n\n'),
      summary: 'Walking everywhere.',
      status: 'published',
      visibility: 'public',
      publishedAt: '2019-05-04T10:11:12.000Z',
      updatedAt: '2019-06-01T08:00:00.000Z',
      categories: ['Travel'],
      tags: ['Rome', 'Food'],
      cover: { kind: 'url', url: upload('colosseum.jpg') },
      images: [
        { ref: { kind: 'url', url: upload('colosseum.jpg') }, inMarkdown: upload('colosseum.jpg') },
        { ref: { kind: 'url', url: upload('forum.jpg') }, inMarkdown: upload('forum.jpg') },
      ],
      oldPaths: ['/2019/05/three-days-in-rome/', '/three-days-in-rome/'],
      comments: [
        { sourceId: '100', parentSourceId: null, authorName: 'Grace', authorUrl: 'https://grace.example.org/', text: 'Lovely! My tips (https://example.org/tips)', createdAt: '2019-05-05T09:00:00.000Z', approved: true },
        { sourceId: '101', parentSourceId: '100', authorName: 'Ada Lovelace', authorUrl: null, text: 'Thank you & see you there.\nNext time.', createdAt: '2019-05-05T10:30:00.000Z', approved: true },
        { sourceId: '104', parentSourceId: null, authorName: 'Linus', authorUrl: null, text: 'Waiting for moderation', createdAt: '2019-05-08T12:00:00.000Z', approved: false },
      ],
    });
  });

  it('gives our renderer a body it shows as the old post was: a captioned figure, a player, coloured code', async () => {
    // As the importer does: each picture's address in the Markdown replaced with our store's.
    const p = post(bundle.posts, '11');
    const ours = (n: number) => `/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5${n}-1600.webp`;
    const markdown = p.images.reduce((md, image, n) => md.replaceAll(image.inMarkdown, ours(n)), p.markdown);
    const html = await renderMarkdown(markdown);
    expect(html).toMatch(/<figure><img src="\/uploads\/[^"]*a50-1600\.webp" alt="The Colosseum"[^>]*><figcaption>The Colosseum at dawn<\/figcaption><\/figure>/);
    expect(html).toMatch(/<img src="\/uploads\/[^"]*a51-1600\.webp"/);
    expect(html).toContain('data-embed="youtube:dQw4w9WgXcQ"');
    expect(html).toContain('<code class="language-python">');
    expect(html).toContain('<p>[contact-form-7 id="5" title="Contact"]</p>');
  });

  it('reads a block-editor post: relative link, code with its language, table, embed block', () => {
    const p = post(bundle.posts, '20');
    expect(p.authorSourceId).toBe('noor');
    expect(p.markdown).toBe(
      'Block editor post with [a relative link](https://old-blog.example.com/about/).\n\n```typescript\nconst x: number = 1;\n```\n\n| City | Days |\n| --- | --- |\n| Rome | 3 |\n\nhttps://vimeo.com/76979871',
    );
    expect(p.cover).toBeNull();
    expect(p.categories).toEqual(['Tech']);
    expect(p.oldPaths).toEqual(['/2021/02/gutenberg-code-table/', '/gutenberg-code-table/']);
  });

  it('keeps drafts and private posts as drafts with no old paths, and leaves out the trash', () => {
    expect(post(bundle.posts, '30')).toMatchObject({ status: 'draft', publishedAt: null, oldPaths: [], markdown: 'Not yet.' });
    expect(post(bundle.posts, '31')).toMatchObject({ status: 'draft', publishedAt: '2020-01-01T00:00:00.000Z', oldPaths: [] });
    expect(bundle.posts.map((p) => p.sourceId)).toEqual(['11', '20', '30', '31']);
  });

  it('says what it left out and why: spam, pingbacks, a missing featured image, the trash, pages, menu items, revisions', () => {
    expect(bundle.skipped).toEqual([
      { item: 'post 11 “Three days in Rome & a gelato”: comment 102', reason: 'marked as spam' },
      { item: 'post 11 “Three days in Rome & a gelato”: comment 103', reason: 'a pingback, not a comment' },
      { item: 'post 32 “Thrown away”', reason: 'in the trash' },
      { item: 'page 40 “About”', reason: 'a page, not a post' },
      { item: 'post 20 “Gutenberg, code and a table”: featured image', reason: 'attachment 999 is not in the export' },
      { item: '1 nav_menu_item item', reason: 'a menu item, not a post' },
      { item: '1 revision item', reason: 'an earlier revision of a post' },
    ]);
  });
});

describe('readWordpress: a large export with the odd cases', async () => {
  const COUNT = 400;
  const bulk = bulkItems(COUNT);
  const xml = wxr([...knownItems(), ...bulk.items]);
  const bundle = await readWordpress(Buffer.from(xml));
  const bulkPosts = bundle.posts.filter((p) => Number(p.sourceId) >= 1000);

  it('reads every post, comment and featured image', () => {
    expect(bulkPosts).toHaveLength(COUNT);
    expect(bulkPosts.reduce((n, p) => n + p.comments.length, 0)).toBe(bulk.comments);
    expect(bulkPosts.filter((p) => p.cover).length).toBe(bulk.covers);
    expect(bundle.skipped.filter((s) => /^attachment 9\d{5} /.test(s.reason)).length).toBe(bulk.missingCovers);
    expect(bulkPosts.every((p) => p.images.length === 1 && p.status === 'published')).toBe(true);
  });

  it('lets the server answer others while it reads: the event loop turns between slices of the export', async () => {
    let turns = 0;
    let reading = true;
    const turn = () => {
      if (!reading) return;
      turns += 1;
      setImmediate(turn);
    };
    setImmediate(turn);
    const again = await readWordpress(Buffer.from(xml));
    reading = false;
    expect(again.posts).toHaveLength(bundle.posts.length);
    // At least one turn for every 128 KB: read in one go, it was none.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(xml) / (128 * 1024)));
    expect(Buffer.byteLength(xml)).toBeGreaterThan(256 * 1024);
  });

  it('hands its posts on in chunks as it reads them, and rewrites those waiting for an attachment once the file is read: what is staged is the whole bundle (docs/decisions/095)', async () => {
    // The attachments last, so every gallery and featured image waits for the end of the file.
    const items = [...bulk.items, ...knownItems()];
    const late = Buffer.from(wxr([...items.filter((i) => i.type !== 'attachment'), ...items.filter((i) => i.type === 'attachment')]));
    const whole = await readWordpress(late);
    const { staged, chunks, rewritten, rest } = await readStaged((options) => readWordpress(late, options), 50);
    expect(chunks.every((n) => n >= 50)).toBe(true);
    expect(rest.posts.length).toBeLessThan(50);
    expect([...staged, ...rest.posts.map((p) => JSON.stringify(p))]).toEqual(whole.posts.map((p) => JSON.stringify(p)));
    expect({ ...rest, posts: [] }).toEqual({ ...whole, posts: [] });
    // Only the posts with a gallery or a featured image are read again.
    expect(rewritten.length).toBeGreaterThan(0);
    expect(whole.posts.slice(0, staged.length).filter((p, n) => p.cover && !rewritten.includes(n))).toEqual([]);
    expect(rewritten.length).toBeLessThan(staged.length / 2);
    // Without a way to rewrite what it handed on, it hands nothing on.
    const kept = await readWordpress(late, { chunk: 50, onPosts: async () => expect.unreachable() });
    expect(kept).toEqual(whole);
  });

  it('keeps the threads: each reply hangs from the comment before it', () => {
    const p = post(bundle.posts, '1000');
    expect(p.comments.map((c) => [c.sourceId, c.parentSourceId])).toEqual([['10000', null], ['10001', '10000'], ['10002', '10001']]);
    expect(p.comments[2]!.text).toBe('مرحبا بالعالم، هذه تدوينة باللغة العربية. שלום עולם');
  });

  it('keeps emoji and right-to-left titles, and repairs broken HTML, keeping its picture', () => {
    expect(post(bundle.posts, '1002').title).toBe('Sunset 🌅 with friends 👩‍👩‍👧 and 🍝 #1');
    expect(post(bundle.posts, '1004').title).toBe('مرحبا بالعالم، هذه تدوينة باللغة العربية. שלום עולם 2');
    const broken = post(bundle.posts, '1006');
    expect(broken.markdown).toContain('Broken **markup _never closed_**');
    expect(broken.images.map((i) => i.inMarkdown)).toEqual([upload('missing-3.jpg')]);
  });

  it('gives a duplicated slug’s bare path to the first post only; each keeps its dated path', () => {
    const dupes = bulkPosts.filter((p) => p.oldPaths.some((path) => path.endsWith('/hello-world/')));
    expect(dupes).toHaveLength(COUNT / 50);
    expect(dupes.filter((p) => p.oldPaths.includes('/hello-world/'))).toHaveLength(1);
    const all = bundle.posts.flatMap((p) => p.oldPaths);
    expect(new Set(all).size).toBe(all.length);
    // Each post that could not have it is named in the report, with the post that has it.
    const first = bundle.posts.find((p) => p.oldPaths.includes('/hello-world/'))!;
    const notes = bundle.skipped.filter((s) => s.item.endsWith(': old path /hello-world/'));
    expect(notes).toHaveLength(COUNT / 50 - 1);
    expect(notes.map((s) => s.item.slice(0, s.item.indexOf(' “')))).toEqual(dupes.filter((p) => p !== first).map((p) => `post ${p.sourceId}`));
    expect(new Set(notes.map((s) => s.reason))).toEqual(new Set([`post ${first.sourceId} “${first.title}” has that path first`]));
  });

  it('reads the same export split over several files of an archive, and from a stream cut at any byte', async () => {
    const half = Math.floor(bulk.items.length / 2);
    const entries = archiveEntries(new Map([
      ['export/site.wordpress.2026-11-20.000.xml', wxr([...knownItems(), ...bulk.items.slice(0, half)])],
      ['export/site.wordpress.2026-11-20.001.xml', wxr(bulk.items.slice(half))],
      ['export/readme.txt', 'not xml'],
    ]));
    const split = await readWordpress(entries);
    expect(split.posts).toEqual(bundle.posts);
    expect(entries.reads).toHaveLength(2);

    const bytes = Buffer.from(xml);
    const streamed = await readWordpress((async function* () {
      for (let at = 0; at < bytes.length; at += 7919) yield bytes.subarray(at, at + 7919);
    })());
    expect(streamed.posts).toEqual(bundle.posts);
  });
});

describe('readWordpress: hostile files are refused fast and small', () => {
  const refusedWithin = async (xml: string, message: RegExp) => {
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await readWordpress(Buffer.from(xml)).catch((e: unknown) => e);
    const ms = performance.now() - started;
    expect(error).toBeInstanceOf(ArchiveRefused);
    expect((error as Error).message).toMatch(message);
    expect(ms).toBeLessThan(2_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
  };

  it('refuses an external entity (XXE) without reading it', () => refusedWithin(xxeXml(), /declares a DTD/));
  it('refuses entity expansion (billion laughs)', () => refusedWithin(billionLaughsXml(), /declares a DTD/));
  it('refuses 10,000 levels of nesting', () => refusedWithin(deepNestingXml(10_000), /nest more than 64 levels/));
  it('refuses a file that is not XML, saying so', async () => {
    await expect(readWordpress(Buffer.from('<rss><channel><item></channel>'))).rejects.toThrow(/not a readable WordPress export/);
    await expect(readWordpress(Buffer.from('PK\u0003\u0004 zip bytes'))).rejects.toBeInstanceOf(ArchiveRefused);
    await expect(readWordpress(archiveEntries(new Map([['notes.txt', 'x']])))).rejects.toThrow(/no WordPress export/);
  });
  it('passes on the archive’s own refusal of a file over its size limit', async () => {
    const entries = archiveEntries(new Map([['big.xml', wxr(bulkItems(50).items)]]), 1024);
    await expect(readWordpress(entries)).rejects.toThrow(/big\.xml is larger than 1024 bytes/);
  });
  it('keeps an article about XML whose body mentions <!DOCTYPE in CDATA', async () => {
    const bundle = await readWordpress(Buffer.from(wxr([{ id: 5, title: 'XML', slug: 'xml', date: '2020-01-01 00:00:00', content: '<!DOCTYPE html><pre><code>&lt;!DOCTYPE html&gt;</code></pre>' }])));
    expect(bundle.posts[0]!.markdown).toBe('```\n<!DOCTYPE html>\n```');
  });
});

describe('readWordpress: fields from outside', () => {
  it('takes a title’s plain words (entities decoded, tags dropped) and only a web address for a commenter', async () => {
    const bundle = await readWordpress(Buffer.from(wxr([{
      id: 7, title: 'x', slug: 'x', date: '2020-01-01 00:00:00', content: 'x',
      comments: [{ id: 1, author: 'Eve', url: 'javascript:alert(1)', date: '2020-01-02 00:00:00', content: 'hi' }, { id: 2, author: 'Bob', url: 'http://bob.example', date: '2020-01-02 00:00:00', content: 'yo' }],
    }]).replace('<title>x</title>', '<title><![CDATA[Rome&#8217;s <em>best</em> &amp; brightest]]></title>')));
    expect(bundle.posts[0]!.title).toBe('Rome’s best & brightest');
    expect(bundle.posts[0]!.comments.map((c) => c.authorUrl)).toEqual([null, 'http://bob.example/']);
  });
});

describe('readWordpress: encodings', () => {
  it('reads an export in the encoding its declaration names, and refuses one it cannot read', async () => {
    const xml = wxr([{ id: 8, title: 'Café crème', slug: 'cafe', date: '2020-01-01 00:00:00', content: 'Très bon.' }]).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const bundle = await readWordpress(Buffer.from(xml, 'latin1'));
    expect(bundle.posts[0]).toMatchObject({ title: 'Café crème', markdown: 'Très bon.' });
    await expect(readWordpress(Buffer.from(xml.replace('ISO-8859-1', 'x-klingon')))).rejects.toThrow(/encoding this server cannot read \(x-klingon\)/);
  });
});

describe('shortcodes and paragraphs', () => {
  it('turns embeds, videos and audio into players, and leaves unknown shortcodes as text', () => {
    expect(expandShortcodes('[embed]https://youtu.be/dQw4w9WgXcQ[/embed]', '1')).toContain('<iframe src="https://youtu.be/dQw4w9WgXcQ">');
    expect(expandShortcodes('[youtube dQw4w9WgXcQ]', '1')).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(expandShortcodes('[youtube=https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;w=640]', '1')).toContain('https://www.youtube.com/watch?v=dQw4w9WgXcQ&amp;w=640');
    expect(expandShortcodes('[vimeo 76979871]', '1')).toContain('https://vimeo.com/76979871');
    expect(expandShortcodes('[audio mp3="https://pod.example/ep1.mp3"][/audio]', '1')).toContain('https://pod.example/ep1.mp3');
    expect(expandShortcodes('[caption caption="Old style"]<img src="a.jpg" />[/caption]', '1')).toBe('<figure><img src="a.jpg" /><figcaption>Old style</figcaption></figure>');
    expect(expandShortcodes('[footnote]x[/footnote] [audio]', '1')).toBe('[footnote]x[/footnote] [audio]');
  });

  it('resolves a gallery without ids to the pictures attached to its post', async () => {
    const bundle = await readWordpress(Buffer.from(wxr([
      { id: 2, type: 'attachment', status: 'inherit', title: 'a', slug: 'a', date: '2020-01-01 00:00:00', parent: 1, attachmentUrl: upload('a.jpg') },
      { id: 1, title: 'G', slug: 'g', date: '2020-01-01 00:00:00', content: 'Look:\n\n[gallery]' },
      { id: 3, type: 'attachment', status: 'inherit', title: 'b', slug: 'b', date: '2020-01-01 00:00:00', parent: 1, attachmentUrl: upload('b.jpg') },
    ])));
    expect(bundle.posts[0]!.markdown).toBe(`Look:\n\n![](${upload('a.jpg')})\n\n![](${upload('b.jpg')})`);
  });

  it('adds paragraphs to a classic post only, never inside <pre>', () => {
    expect(autoParagraphs('one\ntwo\n\n<pre>a\n\nb</pre>\n\nthree')).toBe('<p>one<br />\ntwo</p>\n\n<pre>a\n\nb</pre>\n\n<p>three</p>');
    expect(autoParagraphs('<p>already</p>\n\nx')).toBe('<p>already</p>\n\nx');
    expect(autoParagraphs('Teaser.<!--more-->The rest.')).toBe('<p>Teaser.</p>\n\n<p>The rest.</p>');
  });
});
