import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { MESSAGES } from '~/lib/texts/messages';
import { createTestApp, type TestUser } from '#test/test-app';
import type { BlogJson } from '../../../app/features/blogs/blogs.presenter';
import { BLOG_LIMITS } from '../../../app/features/blogs/blogs.schema';
import { photoWithSubject } from '../../../tests/support/images';

/** A multipart body with one file in `image`, as POST /api/images takes it. */
async function imageForm(bytes: Buffer): Promise<FormData> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

const via = {
  cookie: (u: TestUser) => ({ cookie: u.cookie }),
  bearer: (u: TestUser) => ({ authorization: `Bearer ${u.token}` }),
};
type Via = keyof typeof via;

const payload = (overrides: Record<string, unknown> = {}) => ({
  title: 'Evening over the bay',
  email: 'forged@example.com',
  Name: 'Forged Name',
  category: 'Travelling & Photography',
  type: 'written content',
  short_description: 'Orange water, purple sky.',
  long_description: '## The walk\n\nWe went **down** to the pier.',
  availability: 'Public',
  photo: '/uploads/bay-1600.webp',
  createdAt: '1999-01-01T00:00:00.000Z',
  ...overrides,
});

describeOnDialects('blogs API on %s', (t, dialect) => {
  let owner: TestUser;
  let other: TestUser;
  let clock = Date.parse('2026-11-01T10:00:00.000Z');

  beforeAll(async () => {
    // A fixed, advancing clock: every blog gets a distinct createdAt, so orders are exact.
    t.deps.now = () => new Date((clock += 1000));
    owner = await t.createUser({ name: 'Olive Owner' });
    other = await t.createUser({ name: 'Oscar Other' });
  });

  async function create(user: TestUser, overrides: Record<string, unknown> = {}, how: Via = 'cookie') {
    const res = await t.request('/api/blogs', { method: 'POST', headers: via[how](user), json: payload(overrides) });
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { insertedId: string }).insertedId;
  }
  const get = (path: string, user?: TestUser, how: Via = 'cookie') => t.request(path, { headers: user ? via[how](user) : {} });

  for (const how of ['cookie', 'bearer'] as const) {
    it(`creates a blog owned by the caller, whatever the payload claims (${how})`, async () => {
      const id = await create(owner, {}, how);
      const blog = (await (await get(`/api/blogs/${id}`)).json()) as BlogJson;
      expect(blog).toEqual({
        _id: id,
        title: 'Evening over the bay',
        isOwner: false,
        name: 'Olive Owner',
        category: 'Travelling & Photography',
        type: 'written content',
        short_description: 'Orange water, purple sky.',
        long_description: '## The walk\n\nWe went **down** to the pier.',
        details: null,
        availability: 'Public',
        photo: '/uploads/bay-1600.webp',
        // A photo the pipeline found no focal point for, and none chosen (decision 040).
        photo_focus: 'auto',
        photo_position: null,
        createdAt: expect.stringMatching(/^2026-11-01T10:/),
        likes: 0,
        likedBy: [],
        views: 0,
        slug: 'evening-over-the-bay',
        tags: [],
        comments: [],
      });
      // The owner is told it is theirs, with their own email; nobody else sees an email (docs/product.md#emails-of-others).
      expect(await (await get(`/api/blogs/${id}`, owner, how)).json()).toMatchObject({ isOwner: true, email: owner.user.email });
      expect(await (await get(`/api/blogs/${id}`, other, how)).json()).not.toHaveProperty('email');
    });

    it(`lets only the owner update, keeping the photo when absent (${how})`, async () => {
      const id = await create(owner);
      const put = (user: TestUser | null, json: unknown) =>
        t.request(`/api/blogs/${id}`, { method: 'PUT', headers: user ? via[how](user) : {}, json });
      expect((await put(null, { title: 'Anon' })).status).toBe(401);
      const denied = await put(other, { title: 'Hijacked' });
      expect(denied.status).toBe(403);
      expect(await denied.json()).toMatchObject({ message: MESSAGES.onlyOwnerUpdate });
      const ok = await put(owner, { title: 'Evening, revised', name: 'Ignored', email: other.user.email });
      expect(await ok.json()).toEqual({ modifiedCount: 1 });
      const blog = (await (await get(`/api/blogs/${id}`)).json()) as BlogJson;
      expect(blog).toMatchObject({ title: 'Evening, revised', name: 'Olive Owner', photo: '/uploads/bay-1600.webp' });
      expect(await (await get(`/api/blogs/${id}`, owner, how)).json()).toMatchObject({ isOwner: true, email: owner.user.email });
    });

    it(`takes the writer's photo focus, answers it, and refuses one that is not a choice (${how})`, async () => {
      const uploaded = await t.request('/api/images', { method: 'POST', headers: via[how](owner), body: await imageForm(await photoWithSubject({ x: 80, y: 20 })) });
      const { url } = ((await uploaded.json()) as { data: { url: string } }).data;
      const id = await create(owner, { photo: url, photo_focus: 'bottom' }, how);
      expect(await (await get(`/api/blogs/${id}`)).json()).toMatchObject({ photo: url, photo_focus: 'bottom', photo_position: '50% 100%' });
      const put = (json: unknown) => t.request(`/api/blogs/${id}`, { method: 'PUT', headers: via[how](owner), json });
      expect(await (await put({ photo_focus: 'auto' })).json()).toEqual({ modifiedCount: 1 });
      // Automatic: the point the pipeline found at upload, right of the middle and high, like the subject.
      const automatic = ((await (await get(`/api/blogs/${id}`)).json()) as BlogJson).photo_position!;
      const [x, y] = automatic.split(' ').map((v) => Number.parseInt(v, 10));
      expect(x).toBeGreaterThan(65);
      expect(y).toBeLessThan(35);
      const refused = await put({ photo_focus: 'middle' });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toMatch(/^photo_focus:/);
    });

    it(`lets only the owner delete, taking comments, likes and wishlist rows along (${how})`, async () => {
      const id = await create(owner);
      await t.request(`/api/blogs/liked/${id}`, { method: 'PATCH', headers: via[how](other) });
      await t.request(`/api/blogs/${id}`, { method: 'PATCH', headers: via[how](other), json: { commentText: 'Lovely' } });
      const wish = await t.request('/api/wishlist', {
        method: 'POST',
        headers: via[how](other),
        json: { blogId: id, title: 'x', photo: null, email: other.user.email, category: 'Personal', likeCount: 0, description: 'x' },
      });
      expect(wish.status).toBe(201);
      expect((await t.request(`/api/blogs/${id}`, { method: 'DELETE' })).status).toBe(401);
      expect((await t.request(`/api/blogs/${id}`, { method: 'DELETE', headers: via[how](other) })).status).toBe(403);
      const ok = await t.request(`/api/blogs/${id}`, { method: 'DELETE', headers: via[how](owner) });
      expect(await ok.json()).toEqual({ deletedCount: 1 });
      expect((await get(`/api/blogs/${id}`, owner)).status).toBe(404);
      const db = t.deps.database.db;
      for (const table of ['comments', 'likes', 'wishlist'] as const) {
        const rows = await db.selectFrom(table).select('blog_id').where('blog_id', '=', id).execute();
        expect(rows, table).toEqual([]);
      }
    });

    it(`counts one like per user, allows unliking and keeps the count in step (${how})`, async () => {
      const id = await create(owner);
      const like = (user: TestUser | null, method = 'PATCH') =>
        t.request(`/api/blogs/liked/${id}`, { method, headers: user ? via[how](user) : {}, json: { userEmail: 'forged@example.com' } });
      expect((await like(null)).status).toBe(401);
      expect(await (await like(other)).json()).toEqual({ modifiedCount: 1 });
      expect(await (await like(other)).json()).toEqual({ modifiedCount: 0 });
      let blog = (await (await get(`/api/blogs/${id}`, other, how)).json()) as BlogJson;
      expect(blog.likes).toBe(1);
      expect(blog.likedBy).toEqual([other.user.email]);
      // Likers' addresses are not published to everyone else.
      expect(((await (await get(`/api/blogs/${id}`)).json()) as BlogJson).likedBy).toEqual([]);
      const mine = await get(`/api/blogs/liked/${encodeURIComponent(other.user.email)}`, other, how);
      expect(await mine.json()).toContainEqual({ blogId: id, likes: 1, likedBy: [other.user.email] });
      expect((await get(`/api/blogs/liked/${encodeURIComponent(other.user.email)}`, owner, how)).status).toBe(403);
      expect((await get(`/api/blogs/liked/${encodeURIComponent(other.user.email)}`)).status).toBe(401);
      expect(await (await like(other, 'DELETE')).json()).toEqual({ modifiedCount: 1 });
      expect(await (await like(other, 'DELETE')).json()).toEqual({ modifiedCount: 0 });
      blog = (await (await get(`/api/blogs/${id}`)).json()) as BlogJson;
      expect(blog.likes).toBe(0);
    });

    it(`takes comments from others as the caller, never from the owner (${how})`, async () => {
      const id = await create(owner);
      const comment = (user: TestUser | null, json: unknown) =>
        t.request(`/api/blogs/${id}`, { method: 'PATCH', headers: user ? via[how](user) : {}, json });
      const body = { userName: 'Forged', userPhoto: 'https://evil.example/x.png', userEmail: 'forged@example.com', commentText: 'What a sky!' };
      expect((await comment(null, body)).status).toBe(401);
      const own = await comment(owner, body);
      expect(own.status).toBe(403);
      expect(await own.json()).toMatchObject({ message: MESSAGES.cantCommentOwn });
      expect(await (await comment(other, body)).json()).toEqual({ success: true });
      const missing = await comment(other, { commentText: '   ' });
      expect(missing.status).toBe(400);
      expect(((await missing.json()) as { message: string }).message).toMatch(/^commentText/);
      const blog = (await (await get(`/api/blogs/${id}`)).json()) as BlogJson;
      expect(blog.comments).toEqual([{ _id: expect.any(String), userName: 'Oscar Other', userPhoto: null, isMine: false, isAuthor: false, commentText: 'What a sky!', commentedAt: expect.any(String), edited: false, parentId: null, depth: 0, likes: 0, likedByMe: false, pinned: false, deleted: false }]);
      const seenByAuthor = (await (await get(`/api/blogs/${id}`, other, how)).json()) as BlogJson;
      expect(seenByAuthor.comments).toEqual([{ _id: expect.any(String), userName: 'Oscar Other', userPhoto: null, userEmail: other.user.email, isMine: true, isAuthor: false, commentText: 'What a sky!', commentedAt: expect.any(String), edited: false, parentId: null, depth: 0, likes: 0, likedByMe: false, pinned: false, deleted: false }]);
      const count = await t.deps.database.db.selectFrom('blogs').select('comments_count').where('id', '=', id).executeTakeFirstOrThrow();
      expect(count.comments_count).toBe(1);
    });

    it(`shows a Hidden blog to its owner only, everywhere (${how})`, async () => {
      const id = await create(owner, { title: 'Private draft', category: 'DIY & Craft Blogs', availability: 'Hidden' });
      expect((await get(`/api/blogs/${id}`, owner, how)).status).toBe(200);
      for (const user of [undefined, other]) {
        expect((await get(`/api/blogs/${id}`, user, how)).status).toBe(404);
        expect((await t.request(`/api/blogs/${id}/view`, { method: 'PATCH', headers: user ? via[how](user) : {} })).status).toBe(404);
        const list = (await (await get('/api/blogs?search=DIY%20%26%20Craft%20Blogs&limit=100', user, how)).json()) as BlogJson[];
        expect(list.map((b) => b._id)).not.toContain(id);
      }
      expect((await t.request(`/api/blogs/liked/${id}`, { method: 'PATCH', headers: via[how](other) })).status).toBe(404);
      expect((await t.request(`/api/blogs/${id}`, { method: 'PATCH', headers: via[how](other), json: { commentText: 'hi' } })).status).toBe(404);
      expect((await t.request(`/api/blogs/${id}`, { method: 'PUT', headers: via[how](other), json: { title: 'x' } })).status).toBe(404);
      expect((await t.request(`/api/blogs/${id}`, { method: 'DELETE', headers: via[how](other) })).status).toBe(404);
      const mine = (await (await get('/api/blogs?search=DIY%20%26%20Craft%20Blogs&limit=100', owner, how)).json()) as BlogJson[];
      expect(mine.map((b) => b._id)).toContain(id);
      for (const path of ['/api/recent-blog', '/api/featuredblogs']) {
        const shown = (await (await get(path, owner, how)).json()) as BlogJson[];
        expect(shown.map((b) => b._id)).not.toContain(id);
      }
    });
  }

  it('counts a view once per visitor and blog a day, and writes the counted ones in one batch', async () => {
    const id = await create(owner);
    const view = (headers: Record<string, string> = {}, address = '127.0.0.1') =>
      t.app.fetch(new Request(`http://afterglow.test/api/blogs/${id}/view`, { method: 'PATCH', headers: { origin: 'http://afterglow.test', ...headers } }), {
        incoming: { socket: { remoteAddress: address } },
      });
    const counted = async (res: Response) => ((await res.json()) as { modifiedCount: number }).modifiedCount;
    // One anonymous visitor (address + user agent), twice; another browser on that address; another address; a
    // signed-in reader from two addresses.
    const answers = [
      await counted(await view({ 'user-agent': 'Firefox' })),
      await counted(await view({ 'user-agent': 'Firefox' })),
      await counted(await view({ 'user-agent': 'Chromium' })),
      await counted(await view({ 'user-agent': 'Firefox' }, '192.0.2.7')),
      await counted(await view(via.cookie(other))),
      await counted(await view(via.cookie(other), '192.0.2.8')),
    ];
    expect(answers).toEqual([1, 0, 1, 1, 1, 0]);
    const row = () => t.deps.database.db.selectFrom('blogs').select('views').where('id', '=', id).executeTakeFirstOrThrow();
    expect((await row()).views).toBe(0);
    expect(await t.deps.views.flush()).toBe(4);
    expect((await row()).views).toBe(4);
    expect(await t.deps.views.flush()).toBe(0);
  });

  it('filters by category, pages with X-Total-Count and Link, newest first', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await create(other, { title: `Recipe ${i}`, category: 'Food & Health' }));
    const res = await get('/api/blogs?search=Food%20%26%20Health&page=2&limit=2');
    expect(res.status).toBe(200);
    const page = (await res.json()) as BlogJson[];
    expect(page.map((b) => b.title)).toEqual(['Recipe 2', 'Recipe 1']);
    expect(res.headers.get('X-Total-Count')).toBe('5');
    const link = res.headers.get('Link')!;
    expect(link).toContain('page=1&limit=2>; rel="first"');
    expect(link).toContain('page=3&limit=2>; rel="last"');
    expect(link).toContain('page=3&limit=2>; rel="next"');
    expect(link).toContain('search=Food+%26+Health');
  });

  it('searches with ?q=: ranked, combined with the category, paged with headers that keep q, never another user’s Hidden blog', async () => {
    await create(other, { title: 'Quayside', category: 'Personal', long_description: 'The old zeppelin hangar at dawn.' });
    await create(other, { title: 'Zeppelin days', category: 'Technology' });
    await create(other, { title: 'Airships', category: 'Technology', long_description: 'A zeppelin, then another zeppelin.' });
    await create(owner, { title: 'Zeppelin draft', availability: 'Hidden' });
    const res = await get('/api/blogs?q=Zeppelin&search=Technology&limit=1');
    expect(res.status).toBe(200);
    expect(((await res.json()) as BlogJson[]).map((b) => b.title)).toEqual(['Zeppelin days']);
    expect(res.headers.get('X-Total-Count')).toBe('2');
    expect(res.headers.get('Link')).toMatch(/<\/api\/blogs\?q=Zeppelin&search=Technology[^>]*page=2[^>]*>; rel="next"/);
    const all = (await (await get('/api/blogs?q=zeppelin&limit=100', other)).json()) as BlogJson[];
    expect(all.map((b) => b.title).sort()).toEqual(['Airships', 'Quayside', 'Zeppelin days']);
    expect(all.find((b) => b.title === 'Quayside')!.snippet).toContain('<mark>zeppelin</mark> hangar at dawn');
    const mine = (await (await get('/api/blogs?q=zeppelin&limit=100', owner)).json()) as BlogJson[];
    expect(mine.map((b) => b.title)).toContain('Zeppelin draft');
    const none = await get('/api/blogs?q=');
    expect(((await none.json()) as BlogJson[]).every((b) => b.snippet === undefined)).toBe(true);
  });

  it('answers any search text with 200, and too long a text with a clear 400', async () => {
    for (const q of ['"', 'a*', 'NEAR(a b)', '-', ':', 'title:x', '((', '))', 'a OR', 'AND', '\'', '%', '<script>', '\u0000']) {
      expect((await get(`/api/blogs?q=${encodeURIComponent(q)}`)).status, q).toBe(200);
    }
    const long = await get(`/api/blogs?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(((await long.json()) as { message: string }).message).toMatch(/q.*200 characters/);
  });

  it('answers the 6 newest public blogs as recent, and the top 10 by likes, views, then newest as featured', async () => {
    const fresh = await createTestApp(dialect);
    try {
      let at = Date.parse('2026-10-01T00:00:00.000Z');
      fresh.deps.now = () => new Date((at += 1000));
      const writer = await fresh.createUser();
      const fans = await Promise.all([1, 2, 3].map(() => fresh.createUser()));
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await fresh.request('/api/blogs', { method: 'POST', headers: { cookie: writer.cookie }, json: payload({ title: `Blog ${i}` }) });
        ids.push(((await res.json()) as { insertedId: string }).insertedId);
      }
      await fresh.request('/api/blogs', { method: 'POST', headers: { cookie: writer.cookie }, json: payload({ title: 'Hidden newest', availability: 'Hidden' }) });
      const likeAll = async (id: string, n: number) => {
        for (const fan of fans.slice(0, n)) await fresh.request(`/api/blogs/liked/${id}`, { method: 'PATCH', headers: { cookie: fan.cookie } });
      };
      await likeAll(ids[0]!, 3);
      await likeAll(ids[1]!, 2);
      await likeAll(ids[2]!, 2);
      await fresh.request(`/api/blogs/${ids[2]}/view`, { method: 'PATCH' });
      await fresh.deps.views.flush();
      const recent = (await (await fresh.request('/api/recent-blog')).json()) as BlogJson[];
      expect(recent.map((b) => b.title)).toEqual(['Blog 11', 'Blog 10', 'Blog 9', 'Blog 8', 'Blog 7', 'Blog 6']);
      const featured = (await (await fresh.request('/api/featuredblogs')).json()) as BlogJson[];
      expect(featured.map((b) => b.title)).toEqual(['Blog 0', 'Blog 2', 'Blog 1', 'Blog 11', 'Blog 10', 'Blog 9', 'Blog 8', 'Blog 7', 'Blog 6', 'Blog 5']);
    } finally {
      await fresh.close();
    }
  });

  describe('bad input answers 400 naming the field and changes nothing', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['missing title', { title: undefined }, 'title'],
      ['blank title', { title: '   ' }, 'title'],
      ['title too long', { title: 'x'.repeat(BLOG_LIMITS.title + 1) }, 'title'],
      ['unknown category', { category: 'Gardening' }, 'category'],
      ['unknown type', { type: 'Essay' }, 'type'],
      ['unknown availability', { availability: 'Secret' }, 'availability'],
      ['short description too long', { short_description: 'x'.repeat(BLOG_LIMITS.short_description + 1) }, 'short_description'],
      ['long description too long', { long_description: 'x'.repeat(BLOG_LIMITS.long_description + 1) }, 'long_description'],
      ['details too long', { details: 'x'.repeat(BLOG_LIMITS.details + 1) }, 'details'],
      ['title of the wrong type', { title: 42 }, 'title'],
      ['missing photo', { photo: undefined }, 'photo'],
      ['javascript: photo', { photo: 'javascript:alert(1)' }, 'photo'],
      ['photo too long', { photo: `https://x.example/${'a'.repeat(BLOG_LIMITS.photo)}` }, 'photo'],
      ['unknown photo focus', { photo_focus: 'face' }, 'photo_focus'],
      ['a tag of another shape', { tags: ['night;sky'] }, 'tags'],
      ['too many tags', { tags: Array.from({ length: 11 }, (_, i) => `tag${i}`) }, 'tags'],
    ];
    for (const [name, overrides, field] of cases) {
      it(name, async () => {
        const before = await t.deps.database.db.selectFrom('blogs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        const res = await t.request('/api/blogs', { method: 'POST', headers: via.cookie(owner), json: payload(overrides) });
        expect(res.status).toBe(400);
        const body = (await res.json()) as { message: string };
        expect(body.message.startsWith(`${field}:`), body.message).toBe(true);
        const after = await t.deps.database.db.selectFrom('blogs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(after.n)).toBe(Number(before.n));
      });
    }

    it('an invalid id', async () => {
      for (const [method, path] of [
        ['GET', '/api/blogs/not-an-id'],
        ['PATCH', '/api/blogs/not-an-id/view'],
        ['PATCH', '/api/blogs/liked/not-an-id'],
        ['DELETE', '/api/blogs/not-an-id'],
      ] as const) {
        const res = await t.request(path, { method, headers: via.cookie(owner) });
        expect(res.status, `${method} ${path}`).toBe(400);
        expect(((await res.json()) as { message: string }).message).toMatch(/^(id|blogId): Invalid id/);
      }
    });

    it('an unknown id is a 404', async () => {
      expect((await get('/api/blogs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    });

    it('bad list parameters', async () => {
      for (const query of ['search=Gardening', 'page=0', 'limit=1000', 'page=abc']) {
        expect((await get(`/api/blogs?${query}`)).status, query).toBe(400);
      }
    });

    it('an update with a bad field changes nothing', async () => {
      const id = await create(owner, { title: 'Stays' });
      const res = await t.request(`/api/blogs/${id}`, { method: 'PUT', headers: via.cookie(owner), json: { title: 'Changed', category: 'Nope' } });
      expect(res.status).toBe(400);
      expect(((await (await get(`/api/blogs/${id}`)).json()) as BlogJson).title).toBe('Stays');
    });
  });
});

/** The canvas's drafts (docs/decisions/070): the caller's own, any field may be empty, a refused save changes nothing. */
describeOnDialects('drafts API on %s', (t) => {
  let writer: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    writer = await t.createUser();
    other = await t.createUser();
  });
  const put = (u: TestUser, id: string, json: Record<string, unknown>) => t.request(`/api/drafts/${id}`, { method: 'PUT', headers: via.cookie(u), json });
  const stored = (id: string) => t.deps.database.db.selectFrom('blog_drafts').select(['title', 'owner_id']).where('id', '=', id).executeTakeFirst();

  it('saves an incomplete draft under the id the browser made, for its writer alone', async () => {
    const id = crypto.randomUUID();
    const res = await put(writer, id, { title: 'Half a story', writerId: writer.user.id });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id });
    expect(await stored(id)).toEqual({ title: 'Half a story', owner_id: writer.user.id });

    // Someone else's save under that id, a save meant for another account, and a too long title: refused, nothing changed.
    expect((await put(other, id, { title: 'Mine' })).status).toBe(404);
    expect((await put(other, crypto.randomUUID(), { title: 'Typed for someone else', writerId: writer.user.id })).status).toBe(409);
    expect((await put(writer, id, { title: 'x'.repeat(BLOG_LIMITS.title + 1) })).status).toBe(400);
    expect((await put(writer, 'not-an-id', { title: 'x' })).status).toBe(400);
    expect(await stored(id)).toEqual({ title: 'Half a story', owner_id: writer.user.id });

    expect((await t.request(`/api/drafts/${id}`, { method: 'DELETE', headers: via.cookie(other) })).status).toBe(404);
    expect(await (await t.request(`/api/drafts/${id}`, { method: 'DELETE', headers: via.cookie(writer) })).json()).toEqual({ deletedCount: 1 });
    expect(await stored(id)).toBeUndefined();
  });
});
