import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeZip } from '#test/archives';
import { archiveEntries } from '#test/archives/entries';
import { bulkSubstackPosts, cdnImage, csvText, knownSubstackPosts, SUBSTACK_SITE, substackArchive, substackListCsv, subscriberRows } from '#test/archives/substack';
import { expectChunkedAsWhole } from '#test/chunked-read';
import { tempDirs } from '#test/temp-dirs';
import { openArchive } from '../archive.server';
import { ArchiveRefused, type ImportPost } from '../import-model';
import { readBundle } from '../imports-readers.server';
import { findSubstackLists, readSubstack } from './substack.server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const post = (posts: ImportPost[], id: string) => posts.find((p) => p.sourceId === id)!;

describe('readSubstack: the known posts, field by field', async () => {
  const bundle = await readSubstack(archiveEntries(substackArchive(knownSubstackPosts(), subscriberRows(3))), { siteUrl: SUBSTACK_SITE });

  it('reads a letter: Substack’s figures, players and widgets become our Markdown', () => {
    const image = cdnImage('a1b2.jpeg');
    expect(post(bundle.posts, '139482001')).toEqual({
      sourceId: '139482001',
      authorSourceId: null,
      title: 'The first letter',
      markdown: [
        `Hello, **readers**. See [the next one](${SUBSTACK_SITE}/p/the-second-letter).[1](#footnote-1)`,
        `![](${image} "The harbour at dusk")`,
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        '```\nnpm install afterglow\n```',
        '[1](#footnote-anchor-1)',
        'A footnote.',
      ].join('\n\n'),
      summary: 'Why I write this',
      status: 'published',
      visibility: 'public',
      publishedAt: '2023-04-05T06:07:08.000Z',
      updatedAt: null,
      categories: [],
      tags: [],
      cover: null,
      images: [{ ref: { kind: 'url', url: image }, inMarkdown: image }],
      oldPaths: ['/p/the-first-letter'],
      comments: [],
    });
    expect(bundle.siteUrl).toBe(SUBSTACK_SITE);
    expect(bundle.authors).toEqual([]);
  });

  it('maps the audience onto our visibility, and keeps a podcast’s audio as a player line', () => {
    expect(post(bundle.posts, '139482002').visibility).toBe('paid');
    expect(post(bundle.posts, '139482003').visibility).toBe('members');
    expect(post(bundle.posts, '139482004').markdown).toBe('https://api.substack.com/feed/podcast/139482004/abc.mp3\n\nShow notes.');
  });

  it('keeps an unpublished post as a draft without old paths', () => {
    expect(post(bundle.posts, '139482005')).toMatchObject({ status: 'draft', publishedAt: null, oldPaths: [], markdown: 'Half a thought' });
  });

  it('says why a thread and a post without its body were left out', () => {
    expect(bundle.posts).toHaveLength(5);
    expect(bundle.skipped).toEqual([
      { item: 'post 139482006.open-thread “Open thread”', reason: 'a discussion thread, not a post' },
      { item: 'post 139482007.lost-body “Lost body”', reason: 'its body (posts/139482007.lost-body.html) is not in the archive' },
    ]);
  });

  it('reads subscribers: addresses in lower case, the ones Substack no longer mails as unsubscribed', () => {
    expect(bundle.subscribers).toEqual([
      { email: 'reader.0@mail.example', name: null, status: 'unsubscribed', createdAt: '2021-01-01T00:00:00.000Z' },
      { email: 'reader.1@mail.example', name: null, status: 'active', createdAt: '2021-01-01T01:00:00.000Z' },
      { email: 'reader.2@mail.example', name: null, status: 'active', createdAt: '2021-01-01T02:00:00.000Z' },
    ]);
  });
});

describe('readSubstack: a large export with the odd cases', async () => {
  const COUNT = 300;
  const SUBSCRIBERS = 1_000;
  const entries = archiveEntries(substackArchive(bulkSubstackPosts(COUNT), subscriberRows(SUBSCRIBERS), 'substack-export-2026/'));
  const bundle = await readSubstack(entries);

  it('hands its posts on in chunks as it reads them, keeping none it handed on (docs/decisions/095)', async () => {
    expect(await expectChunkedAsWhole((options) => readSubstack(entries, options), 50)).toHaveLength(Math.floor(bundle.posts.length / 50));
  });

  it('reads every post from a zip whose files sit in a folder, and no statistics file', () => {
    expect(bundle.posts).toHaveLength(COUNT);
    expect(bundle.siteUrl).toBeNull();
    expect(entries.reads.filter((path) => /\.(opens|delivers)\.csv$/.test(path))).toEqual([]);
    expect(bundle.posts.filter((p) => p.images.length === 1)).toHaveLength(COUNT / 4 + COUNT / 5 - COUNT / 20);
  });

  it('keeps emoji, right-to-left titles and repairs broken HTML with its caption', () => {
    expect(post(bundle.posts, '200000001').title).toBe('🌇 Golden hour 🧡 1');
    expect(post(bundle.posts, '200000002').markdown).toBe('שלום לכולם, זה מכתב בעברית. 🌇 Golden hour 🧡');
    const broken = post(bundle.posts, '200000003');
    expect(broken.markdown).toBe(`Broken _markup_\n\n![](${cdnImage('bulk-3.png')} "caption never closed")`);
  });

  it('gives a reused slug’s /p/ path to the first post only', () => {
    const withPath = bundle.posts.filter((p) => p.oldPaths.includes('/p/weekly-notes'));
    expect(withPath.map((p) => p.sourceId)).toEqual(['200000007']);
    // n % 40 === 7 for n below 300: eight posts share the slug, seven get no path.
    expect(bundle.posts.filter((p) => p.oldPaths.length === 0)).toHaveLength(7);
    // Each of the seven is named in the report, with the post that has the path.
    expect(bundle.skipped.filter((s) => s.item.endsWith(': old path /p/weekly-notes'))).toEqual(
      [47, 87, 127, 167, 207, 247, 287].map((n) => ({
        item: `post ${200_000_000 + n}.weekly-notes “${post(bundle.posts, String(200_000_000 + n)).title}”: old path /p/weekly-notes`,
        reason: `post 200000007.weekly-notes “${post(bundle.posts, '200000007').title}” has that path first`,
      })),
    );
  });

  it('reads every subscriber once, and reports the rows that are not addresses', () => {
    const bad = SUBSCRIBERS / 50;
    expect(bundle.subscribers).toHaveLength(SUBSCRIBERS - bad);
    expect(bundle.subscribers.filter((s) => s.status === 'unsubscribed')).toHaveLength(SUBSCRIBERS / 25);
    expect(bundle.skipped.filter((s) => s.reason === 'not an email address')).toHaveLength(bad);
  });
});

describe('readSubstack: archives that are not Substack exports', () => {
  it('refuses an archive without posts.csv', async () => {
    await expect(readSubstack(archiveEntries(new Map([['posts/1.a.html', '<p>x</p>']])))).rejects.toThrow(ArchiveRefused);
  });

  it('skips rows whose id is not Substack’s, and a post listed twice', async () => {
    const files = substackArchive([{ id: 1, slug: 'a', title: 'A', date: '2024-01-01T00:00:00Z', html: '<p>a</p>' }], []);
    files.set('posts.csv', csvText(['post_id', 'title', 'is_published'], [{ post_id: '1.a', title: 'A', is_published: 'true' }, { post_id: '1.a', title: 'A again', is_published: 'true' }, { post_id: '../etc', title: 'Odd', is_published: 'true' }]));
    const bundle = await readSubstack(archiveEntries(files));
    expect(bundle.posts.map((p) => p.title)).toEqual(['A']);
    expect(bundle.skipped.map((s) => s.reason)).toEqual(['listed twice in posts.csv', 'its post_id is not Substack’s <number>.<slug>']);
  });
});

describe('Substack’s subscriber list alone', () => {
  /** What subscriberRows(3) becomes, as the zip's own list gives it. */
  const THREE = [
    { email: 'reader.0@mail.example', name: null, status: 'unsubscribed', createdAt: '2021-01-01T00:00:00.000Z' },
    { email: 'reader.1@mail.example', name: null, status: 'active', createdAt: '2021-01-01T01:00:00.000Z' },
    { email: 'reader.2@mail.example', name: null, status: 'active', createdAt: '2021-01-01T02:00:00.000Z' },
  ];

  it('is recognised uploaded alone (a .csv file), by its header whatever its name: subscribers, no posts, the bad rows reported', async () => {
    const dir = dirs.make('substack-list-');
    for (const name of ['email_list.dusk.csv', 'my readers.csv']) {
      const file = path.join(dir, name);
      await writeFile(file, substackListCsv(subscriberRows(50)));
      const entries = await openArchive(file);
      const bundle = await readBundle(entries);
      await entries.close();
      expect(bundle).toMatchObject({ source: 'substack', siteUrl: null, authors: [], posts: [] });
      expect(bundle.subscribers).toHaveLength(49);
      expect(bundle.subscribers.slice(0, 3)).toEqual(THREE);
      expect(bundle.skipped).toEqual([{ item: `subscriber “not-an-address-49” in ${name}`, reason: 'not an email address' }]);
    }
  });

  it('is recognised in a zip without posts.csv, each address once across two lists', async () => {
    const file = await writeZip(dirs.make('substack-lists-'), 'lists.zip', [
      { name: 'export/email_list.dusk.csv', body: substackListCsv(subscriberRows(3)) },
      { name: 'export/email_list.dawn.csv', body: substackListCsv([{ email: 'READER.1@mail.example', email_disabled: 'true' }, { email: 'new@mail.example', email_disabled: 'false' }]) },
    ]);
    const entries = await openArchive(file);
    expect(await findSubstackLists(entries)).toEqual(['export/email_list.dawn.csv', 'export/email_list.dusk.csv']);
    const bundle = await readBundle(entries);
    await entries.close();
    // Name order: the dawn list comes first, and its row for reader.1 wins.
    expect(bundle.subscribers.map((s) => [s.email, s.status])).toEqual([
      ['reader.1@mail.example', 'unsubscribed'],
      ['new@mail.example', 'active'],
      ['reader.0@mail.example', 'unsubscribed'],
      ['reader.2@mail.example', 'active'],
    ]);
    expect(bundle.posts).toEqual([]);
  });

  it('is not taken for a post’s statistics file, which has addresses but no email_disabled column', async () => {
    const file = path.join(dirs.make('substack-opens-'), '139482001.the-first-letter.opens.csv');
    await writeFile(file, 'email,timestamp\r\nreader@mail.example,2024-01-01T00:00:00Z\r\n');
    const entries = await openArchive(file);
    await expect(readBundle(entries)).rejects.toThrow(/none of the formats this site imports/);
    await entries.close();
  });
});
