import { parseFeed } from '@rowanmanning/feed-parser';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestApp } from '#test/test-app';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { authorFeedPath, buildFeed, categoryFromSlug, categorySlug, FEED_ITEMS } from './feeds.service.server';

const site = { baseUrl: 'https://blog.example.org', siteName: 'Afterglow', imageBases: ['/uploads/'] };

describeOnDialects('feeds on %s', (t) => {
  let writer: Awaited<ReturnType<TestApp['createUser']>>;
  let writerId = '';
  let otherId = '';
  beforeAll(async () => {
    writer = await t.createUser({ name: 'Feed Writer' });
    const other = await t.createUser({ name: 'Other Writer' });
    writerId = writer.user.id;
    otherId = other.user.id;
    let minute = 0;
    const at = (ctx: ReturnType<TestApp['context']>) => ({ ...ctx, now: () => new Date(Date.UTC(2026, 10, 1, 0, minute++)) });
    // The oldest, so the site's feed of the newest 20 leaves it out.
    await createBlog(at(t.context(other.user)), {
      title: 'Another writer’s blog',
      category: 'Technology',
      type: 'written content',
      short_description: 'Elsewhere',
      long_description: 'Elsewhere',
      availability: 'Public',
      photo: '/uploads/a.webp',
    });
    for (let i = 0; i < FEED_ITEMS + 3; i++) {
      await createBlog(at(t.context(writer.user)), {
        title: `Public blog ${i} <b>&</b>`,
        category: i % 2 ? 'Technology' : 'Personal',
        type: 'written content',
        short_description: `Short ${i}`,
        long_description: `Long ${i}`,
        availability: 'Public',
        photo: '/uploads/a.webp',
      });
    }
    await createBlog(at(t.context(writer.user)), {
      title: 'My hidden draft',
      category: 'Technology',
      type: 'written content',
      short_description: 'secret',
      long_description: 'secret',
      availability: 'Hidden',
      photo: '/uploads/a.webp',
    });
  });

  for (const format of ['atom', 'rss'] as const) {
    it(`gives a valid ${format} feed of the latest ${FEED_ITEMS} public blogs`, async () => {
      // Built even for the hidden draft's owner: a feed is what everybody sees.
      const xml = await buildFeed(t.context(null), site, { format });
      const feed = parseFeed(xml);
      expect(feed.meta.type).toBe(format);
      expect(feed.title).toBe('Afterglow');
      expect(feed.items).toHaveLength(FEED_ITEMS);
      expect(feed.items[0]!.title).toBe(`Public blog ${FEED_ITEMS + 2} <b>&</b>`);
      expect(feed.items[0]!.url).toMatch(/^https:\/\/blog\.example\.org\/blogs\/[0-9a-f-]{36}\/[a-z0-9-]+$/);
      expect(feed.items.map((i) => i.title)).not.toContain('My hidden draft');
      expect(xml).not.toContain('secret');
    });
  }

  it('gives a per-category feed', async () => {
    const feed = parseFeed(await buildFeed(t.context(null), site, { format: 'atom', category: 'Technology' }));
    expect(feed.title).toBe('Afterglow: Technology');
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.every((i) => i.categories.some((c) => c.term === 'Technology' || c.label === 'Technology'))).toBe(true);
    expect(feed.items.map((i) => i.title)).not.toContain('My hidden draft');
  });

  it('gives a writer’s own feed: their Public blogs only, newest first, even when the writer asks', async () => {
    for (const format of ['atom', 'rss'] as const) {
      const xml = await buildFeed(t.context(writer.user), site, { format, author: { id: writerId, name: 'Feed Writer' } });
      const feed = parseFeed(xml);
      expect(feed.title).toBe('Afterglow: Feed Writer');
      expect(feed.url).toBe(`https://blog.example.org/authors/${writerId}`);
      expect(feed.items).toHaveLength(FEED_ITEMS);
      expect(feed.items[0]!.title).toBe(`Public blog ${FEED_ITEMS + 2} <b>&</b>`);
      expect(feed.items.map((i) => i.title)).not.toContain('Another writer’s blog');
      expect(xml).toContain(`https://blog.example.org${authorFeedPath(writerId, format)}`);
      expect(xml).not.toContain('secret');
    }
    const other = parseFeed(await buildFeed(t.context(null), site, { format: 'atom', author: { id: otherId, name: 'Other Writer' } }));
    expect(other.items.map((i) => i.title)).toEqual(['Another writer’s blog']);
  });

  it('maps category names to URL slugs and back', () => {
    expect(categorySlug('DIY & Craft Blogs')).toBe('diy-craft-blogs');
    expect(categoryFromSlug('travelling-photography')).toBe('Travelling & Photography');
    expect(categoryFromSlug('nope')).toBeUndefined();
  });
});

describeOnDialects('pictures in feeds on %s (docs/decisions/050)', (t) => {
  it('carry only a photo of our own store; a blog saved with another address is listed without one', async () => {
    const writer = await t.createUser({ name: 'Photo Writer' });
    const stored = '/uploads/0f0e0d0c-0b0a-4900-8800-010203040506-1600.webp';
    const blog = { category: 'Personal', type: 'Photo', short_description: 's', long_description: 'l', availability: 'Public', photo: stored } as const;
    await createBlog(t.context(writer.user), { ...blog, title: 'Ours' });
    const { insertedId } = await createBlog(t.context(writer.user), { ...blog, title: 'Saved before photos were fetched' });
    // Such a blog can no longer be saved; it is one written before the rule, as it sits in the database.
    await t.deps.database.db.updateTable('blogs').set({ photo: 'https://tracker.example/pixel.gif?feed=1' }).where('id', '=', insertedId).execute();
    for (const format of ['atom', 'rss'] as const) {
      const xml = await buildFeed(t.context(null), site, { format });
      expect(xml).toContain(`https://blog.example.org${stored}`);
      expect(xml).not.toContain('tracker.example');
      expect(parseFeed(xml).items.map((i) => i.title).sort()).toEqual(['Ours', 'Saved before photos were fetched']);
    }
  });
});

describeOnDialects('full content in feeds on %s (docs/decisions/066)', (t) => {
  it('carries the whole post with absolute addresses when on, the summary alone when off', async () => {
    const writer = await t.createUser({ name: 'Content Writer' });
    const picture = '/uploads/0b6f2c1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b-1600.webp';
    const body = `Evening **gold**.\n\n![Harbour](${picture}#1600x900)\n\nSee [all blogs](/allblogs).\n\nhttps://www.youtube.com/watch?v=dQw4w9WgXcQ\n`;
    await createBlog(t.context(writer.user), { title: 'Whole', category: 'Personal', type: 'Photo', short_description: 'Summary only', long_description: body, availability: 'Public', photo: picture });
    const author = { id: writer.user.id, name: 'Content Writer' };
    for (const format of ['atom', 'rss'] as const) {
      const item = parseFeed(await buildFeed(t.context(null), { ...site, fullContent: true }, { format, author })).items[0]!;
      expect(item.content).toContain('<strong>gold</strong>');
      expect(item.content).toContain(`src="https://blog.example.org${picture}"`);
      expect(item.content).toContain('href="https://blog.example.org/allblogs"');
      expect(item.content).not.toMatch(/srcset="[^"]*(^|\s|,)\/uploads/);
      expect(item.content).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
      expect(item.content).not.toContain('<button');
      expect(item.description).toBe('Summary only');
      const summaryOnly = parseFeed(await buildFeed(t.context(null), { ...site, fullContent: false }, { format, author })).items[0]!;
      expect(summaryOnly.content ?? summaryOnly.description).not.toContain('gold');
    }
  });
});
