import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.server';
import { createBlog } from '~/features/blogs/blog.service.server';
import { TEST_DIALECTS } from '~/db/testing.server';
import { buildFeed, categoryFromSlug, categorySlug, FEED_ITEMS } from './feed.service.server';

const site = { baseUrl: 'https://blog.example.org', siteName: 'Afterglow' };

describe.each(TEST_DIALECTS)('feeds on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const writer = await t.createUser({ name: 'Feed Writer' });
    let minute = 0;
    const at = (ctx: ReturnType<TestApp['context']>) => ({ ...ctx, now: () => new Date(Date.UTC(2026, 10, 1, 0, minute++)) });
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
  afterAll(async () => t?.close());

  for (const format of ['atom', 'rss'] as const) {
    it(`gives a valid ${format} feed of the latest ${FEED_ITEMS} public blogs`, async () => {
      // Built even for the hidden draft's owner: a feed is what everybody sees.
      const xml = await buildFeed(t.context(null), site, { format });
      const feed = parseFeed(xml);
      expect(feed.meta.type).toBe(format);
      expect(feed.title).toBe('Afterglow');
      expect(feed.items).toHaveLength(FEED_ITEMS);
      expect(feed.items[0]!.title).toBe(`Public blog ${FEED_ITEMS + 2} <b>&</b>`);
      expect(feed.items[0]!.url).toMatch(/^https:\/\/blog\.example\.org\/blogs\/[0-9a-f-]{36}$/);
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

  it('maps category names to URL slugs and back', () => {
    expect(categorySlug('DIY & Craft Blogs')).toBe('diy-craft-blogs');
    expect(categoryFromSlug('travelling-photography')).toBe('Travelling & Photography');
    expect(categoryFromSlug('nope')).toBeUndefined();
  });
});
