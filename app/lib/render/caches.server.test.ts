import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { CACHES, keptByInput, keptFor, keptForLists, keyOf } from './caches.server';
import { tallies } from './metrics.server';

const BLOG = {
  title: 'Counted',
  category: 'Personal',
  type: 'Mini blog',
  short_description: 'Short.',
  long_description: 'Long enough.',
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
} as const;

describeOnDialects('the caches on %s', (t) => {
  let writer: TestUser;
  beforeAll(async () => {
    writer = await t.createUser();
  });

  it('keeps a value that follows the lists while they stand, and reads it again once a list would show something new', async () => {
    const db = t.deps.database.db;
    let reads = 0;
    const count = () => keptForLists('blog_counts', db, keyOf('test', 1), async () => ++reads);
    const misses = tallies.cacheMisses.get('blog_counts');
    expect(await count()).toBe(1);
    expect(await count()).toBe(1);
    expect(tallies.cacheMisses.get('blog_counts')).toBe(misses + 1);
    const { insertedId } = await createBlog(t.context(writer.user), { ...BLOG });
    expect(await count()).toBe(2);
    // A like moves the blog's page, not the lists: the kept value stands.
    await likeBlog(t.context(writer.user), insertedId);
    expect(await count()).toBe(2);
  });

  it('keeps a timed value its age by the caller\'s clock, per owner and key, and leaves a value unkept when asked', async () => {
    const owner = {};
    const age = CACHES.image_totals.freshness.maxAgeMs;
    let reads = 0;
    const totals = (now: number) => keptFor('image_totals', owner, '', now, async () => ++reads);
    expect(await totals(1_000)).toBe(1);
    expect(await totals(1_000 + age - 1)).toBe(1);
    expect(await keptFor('image_totals', {}, '', 1_000, async () => 'another owner')).toBe('another owner');
    expect(await totals(1_000 + age)).toBe(2);
    let empty = 0;
    const figures = () => keptFor('site_figures', owner, '', 5_000, async () => ++empty, () => false);
    expect(await figures()).toBe(1);
    expect(await figures()).toBe(2);
  });

  it('keeps a text made from its key alone for the whole process, unless told not to', async () => {
    const key = keyOf('test', t.deps.config.SESSION_SECRET);
    let renders = 0;
    const render = (keep: boolean) => keptByInput('markdown_html', key, async () => `<p>${++renders}</p>`, keep);
    expect(await render(false)).toBe('<p>1</p>');
    expect(await render(true)).toBe('<p>2</p>');
    const hits = tallies.cacheHits.get('markdown_html');
    expect(await render(true)).toBe('<p>2</p>');
    expect(tallies.cacheHits.get('markdown_html')).toBe(hits + 1);
  });
});
