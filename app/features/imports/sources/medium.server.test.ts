import { describe, expect, it } from 'vitest';
import { archiveEntries } from '#test/archives/entries';
import { bulkMediumStories, cdnMedium, knownMediumStories, mediumArchive } from '#test/archives/medium';
import { expectChunkedAsWhole } from '#test/chunked-read';
import { ArchiveRefused, type ImportPost } from '../import-model';
import { readMedium } from './medium.server';

const post = (posts: ImportPost[], id: string) => posts.find((p) => p.sourceId === id)!;

describe('readMedium: the known stories, field by field', async () => {
  const bundle = await readMedium(archiveEntries(mediumArchive(knownMediumStories())));

  it('reads a story: title and subtitle as fields, the featured picture as the cover, code, player and quote', () => {
    expect(post(bundle.posts, '1a2b3c4d5e6f')).toEqual({
      sourceId: '1a2b3c4d5e6f',
      authorSourceId: '@ada',
      title: 'Three days in Rome',
      markdown: [
        'We landed at _dawn_; [a guide](https://example.org/rome).',
        `![](${cdnMedium('1*forum.png')} "The forum")`,
        '```python\nprint("ciao")\nprint("roma")\n```',
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
        '> All roads.',
      ].join('\n\n'),
      summary: 'Walking everywhere',
      status: 'published',
      visibility: 'public',
      publishedAt: '2019-03-04T10:00:00.123Z',
      updatedAt: null,
      categories: [],
      tags: [],
      cover: { kind: 'url', url: cdnMedium('1*cover.jpeg') },
      images: [{ ref: { kind: 'url', url: cdnMedium('1*forum.png') }, inMarkdown: cdnMedium('1*forum.png') }],
      oldPaths: ['/@ada/three-days-in-rome-1a2b3c4d5e6f', '/p/1a2b3c4d5e6f'],
      comments: [],
    });
    expect(bundle.authors).toEqual([{ sourceId: '@ada', name: 'Ada Lovelace', email: null, bio: null, avatar: null }]);
    expect(bundle.siteUrl).toBe('https://medium.com');
  });

  it('keeps a draft as a draft, with no date and no old paths', () => {
    expect(post(bundle.posts, 'abcdef012345')).toEqual(expect.objectContaining({ title: 'An unfinished draft', status: 'draft', publishedAt: null, oldPaths: [], markdown: 'Not yet.', authorSourceId: null }));
  });

  it('recognises a response and leaves it out with the reason', () => {
    expect(bundle.posts.map((p) => p.sourceId)).toEqual(['1a2b3c4d5e6f', 'abcdef012345']);
    expect(bundle.skipped).toEqual([{ item: '2020-01-02_i-agree-with-this-0f0f0f0f0f0f.html “I agree with this completely, and…”', reason: 'a response to another story, not a post' }]);
  });
});

describe('readMedium: a large export with the odd cases', async () => {
  const COUNT = 360;
  const stories = bulkMediumStories(COUNT);
  const bundle = await readMedium(archiveEntries(mediumArchive(stories)));
  const responses = stories.filter((s) => s.titleGraf === false).length;
  const drafts = stories.filter((s) => s.draft).length;

  it('hands its stories on in chunks as it reads them, keeping none it handed on (docs/decisions/095)', async () => {
    expect(await expectChunkedAsWhole((options) => readMedium(archiveEntries(mediumArchive(stories)), options), 50)).toHaveLength(Math.floor(bundle.posts.length / 50));
  });

  it('reads every story and draft, and leaves out every response', () => {
    expect(responses).toBe(COUNT / 6);
    expect(bundle.posts).toHaveLength(COUNT - responses);
    expect(bundle.posts.filter((p) => p.status === 'draft')).toHaveLength(drafts);
    expect(bundle.skipped.filter((s) => s.reason.startsWith('a response'))).toHaveLength(responses);
  });

  it('keeps emoji and right-to-left text, and repairs broken HTML keeping its picture', () => {
    expect(post(bundle.posts, (0x100000000000 + 1).toString(16)).title).toBe('Night train 🚆✨ 1');
    expect(post(bundle.posts, (0x100000000000 + 2).toString(16)).markdown).toBe('سلام دنیا، این یک نوشته فارسی است. Night train 🚆✨');
    const broken = post(bundle.posts, (0x100000000000 + 3).toString(16));
    expect(broken.markdown).toBe(`Broken **markup _never closed_**\n\n![](${cdnMedium('0*missing-3')})`);
    expect(broken.images).toEqual([{ ref: { kind: 'url', url: cdnMedium('0*missing-3') }, inMarkdown: cdnMedium('0*missing-3') }]);
  });

  it('gives every published story its own old paths, even when titles repeat', () => {
    const paths = bundle.posts.flatMap((p) => p.oldPaths);
    expect(new Set(paths).size).toBe(paths.length);
    expect(bundle.posts.filter((p) => p.status === 'published').every((p) => p.oldPaths.length === 2)).toBe(true);
  });
});

describe('readMedium: archives that are not Medium exports', () => {
  it('refuses an archive without posts/*.html', async () => {
    await expect(readMedium(archiveEntries(new Map([['profile/profile.html', '<html></html>']])))).rejects.toThrow(ArchiveRefused);
  });

  it('reports a file with no story body instead of failing', async () => {
    const files = mediumArchive([{ id: '111111111111', slug: 'x', title: 'X', date: '2020-01-01T00:00:00Z', grafs: '', raw: '<html><body><h1 class="p-name">X</h1><p>just a page</p>' }]);
    const bundle = await readMedium(archiveEntries(files));
    expect(bundle.posts).toEqual([]);
    expect(bundle.skipped).toEqual([{ item: '2020-01-01_x-111111111111.html “X”', reason: 'no story body (section.e-content) in the file' }]);
  });
});
