import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { blogInput } from '#test/blog-inputs';
import type { TestUser } from '#test/test-app';
import { createBlog } from '~/features/blogs/blogs.service.server';

/** GET /api/tags and /api/tags/{tag}/blogs (docs/decisions/069), through the mounted API. */
describeOnDialects('tags API on %s', (t) => {
  let writer: TestUser;
  beforeAll(async () => {
    writer = await t.createUser({ name: 'Api Tagger' });
    await createBlog(t.context(writer.user), blogInput({ title: 'One', tags: ['Harbour', 'boats'] }));
    await createBlog(t.context(writer.user), blogInput({ title: 'Two', tags: ['harbour'] }));
    await createBlog(t.context(writer.user), blogInput({ title: 'Three', availability: 'Hidden', tags: ['hidden-tag'] }));
  });

  it('suggests tags of public posts by their beginning, most used first', async () => {
    const res = await t.request('/api/tags?prefix=HA');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ name: 'Harbour', key: 'harbour', posts: 2 }]);
    expect(await (await t.request('/api/tags?prefix=hidden')).json()).toEqual([]);
    expect((await t.request(`/api/tags?prefix=${'x'.repeat(40)}`)).status).toBe(400);
  });

  it('lists a tag’s posts newest first with paging headers, and answers 404 for an unknown tag', async () => {
    const res = await t.request('/api/tags/HARBOUR/blogs?limit=1');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('2');
    expect(((await res.json()) as { title: string; tags: string[] }[]).map((b) => [b.title, b.tags])).toEqual([['Two', ['Harbour']]]);
    expect((await t.request('/api/tags/no-such-tag/blogs')).status).toBe(404);
  });
});
