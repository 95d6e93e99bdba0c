import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { createBlog, updateBlog } from '~/features/blogs/blogs.service.server';
import { hideContent, restoreContent, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { TestUser } from '#test/test-app';

const auth = {
  cookie: (u: TestUser) => ({ cookie: u.cookie }),
  bearer: (u: TestUser) => ({ authorization: `Bearer ${u.token}` }),
};

describeOnDialects('wishlist API on %s', (t) => {
  let writer: TestUser;
  let publicBlog: string;
  let hiddenBlog: string;

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Writer' });
    const base = {
      category: 'Travelling & Photography' as const,
      type: 'written content' as const,
      short_description: 'Dusk over the dunes.',
      long_description: 'A long walk.',
      photo: '/uploads/dunes.webp',
    };
    ({ insertedId: publicBlog } = await createBlog(t.context(writer.user), { ...base, title: 'Desert evenings', availability: 'Public' }));
    ({ insertedId: hiddenBlog } = await createBlog(t.context(writer.user), { ...base, title: 'Secret draft', availability: 'Hidden' }));
  });

  const homePayload = (blogId: string, email = 'whoever@example.com') => ({
    blogId,
    title: 'Forged title',
    photo: 'https://elsewhere.example/x.png',
    email,
    category: 'Personal',
    createdAt: '2026-01-01T00:00:00.000Z',
    description: 'Forged description',
  });
  const allBlogsPayload = (blogId: string, email = 'whoever@example.com') => ({
    blogId,
    title: 'Desert evenings',
    photo: null,
    email,
    category: 'Travelling & Photography',
    likeCount: 999,
    description: 'Dusk over the dunes.',
  });

  for (const via of ['cookie', 'bearer'] as const) {
    it(`adds from the home page and lists it for the owner only (${via})`, async () => {
      const reader = await t.createUser();
      const other = await t.createUser();
      const headers = auth[via](reader);
      const res = await t.request('/api/wishlist', { method: 'POST', headers, json: homePayload(publicBlog, other.user.email) });
      expect(res.status).toBe(201);
      const { insertedId } = (await res.json()) as { insertedId: string };
      expect(insertedId).toMatch(/^[0-9a-f-]{36}$/);

      const list = await t.request(`/api/wishlist/${encodeURIComponent(reader.user.email)}`, { headers });
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total-count')).toBe('1');
      const items = (await list.json()) as Record<string, unknown>[];
      expect(items).toHaveLength(1);
      // The owner is the caller and the stored copy is the blog's own, whatever the body said.
      expect(Object.keys(items[0]!).sort()).toEqual(['_id', 'blogId', 'category', 'createdAt', 'description', 'email', 'photo', 'photo_position', 'title']);
      expect(items[0]).toMatchObject({
        _id: insertedId,
        blogId: publicBlog,
        title: 'Desert evenings',
        photo: '/uploads/dunes.webp',
        photo_position: null,
        email: reader.user.email,
        category: 'Travelling & Photography',
        description: 'Dusk over the dunes.',
      });
      expect(Number.isNaN(Date.parse(items[0]!.createdAt as string))).toBe(false);

      // Emails in the path compare case-insensitively.
      expect((await t.request(`/api/wishlist/${reader.user.email.toUpperCase()}`, { headers })).status).toBe(200);
      // Nobody else's list: another user is refused, anonymous must sign in.
      const foreign = await t.request(`/api/wishlist/${encodeURIComponent(reader.user.email)}`, { headers: auth[via](other) });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ message: MESSAGES.forbidden, code: 'forbidden' });
      expect((await t.request(`/api/wishlist/${encodeURIComponent(reader.user.email)}`)).status).toBe(401);
      expect(((await (await t.request(`/api/wishlist/${encodeURIComponent(other.user.email)}`, { headers: auth[via](other) })).json()) as unknown[]).length).toBe(0);
    });

    it(`shows the blog's photo focus while the item's copy is still the blog's photo (${via})`, async () => {
      const reader = await t.createUser();
      const headers = auth[via](reader);
      const base = { category: 'Personal' as const, type: 'Photo' as const, short_description: 's', long_description: 'l', availability: 'Public' as const };
      const { insertedId: blogId } = await createBlog(t.context(writer.user), { ...base, title: 'Focused', photo: '/uploads/face.webp', photo_focus: 'top-left' });
      expect((await t.request('/api/wishlist', { method: 'POST', headers, json: homePayload(blogId) })).status).toBe(201);
      const listed = async () => ((await (await t.request(`/api/wishlist/${reader.user.email}`, { headers })).json()) as Record<string, unknown>[])[0];
      expect(await listed()).toMatchObject({ photo: '/uploads/face.webp', photo_position: '0% 0%' });
      await updateBlog(t.context(writer.user), blogId, { photo_focus: 'bottom' });
      expect(await listed()).toMatchObject({ photo_position: '50% 100%' });
      // A new photo on the blog: the item keeps its copy of the old one, whose focus is not known.
      await updateBlog(t.context(writer.user), blogId, { photo: '/uploads/other.webp' });
      expect(await listed()).toMatchObject({ photo: '/uploads/face.webp', photo_position: null });
    });

    it(`adds from All blogs with likeCount, once per blog (${via})`, async () => {
      const reader = await t.createUser();
      const headers = auth[via](reader);
      const first = await t.request('/api/wishlist', { method: 'POST', headers, json: allBlogsPayload(publicBlog) });
      expect(first.status).toBe(201);
      const again = await t.request('/api/wishlist', { method: 'POST', headers, json: homePayload(publicBlog) });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ message: MESSAGES.alreadyAddedText, code: 'conflict' });
      const items = (await (await t.request(`/api/wishlist/${reader.user.email}`, { headers })).json()) as Record<string, unknown>[];
      expect(items).toHaveLength(1);
      // likeCount is the blog's real count, not the payload's.
      expect(items[0]).toMatchObject({ blogId: publicBlog, likeCount: 0, email: reader.user.email });
      expect(items[0]).not.toHaveProperty('createdAt');
    });

    it(`deletes own items only (${via})`, async () => {
      const reader = await t.createUser();
      const other = await t.createUser();
      const added = (await (await t.request('/api/wishlist', { method: 'POST', headers: auth[via](reader), json: homePayload(publicBlog) })).json()) as { insertedId: string };

      expect((await t.request(`/api/wishlist/${added.insertedId}`, { method: 'DELETE' })).status).toBe(401);
      const foreign = await t.request(`/api/wishlist/${added.insertedId}`, { method: 'DELETE', headers: auth[via](other) });
      expect(foreign.status).toBe(403);
      expect((await t.request('/api/wishlist/00000000-0000-0000-0000-000000000000', { method: 'DELETE', headers: auth[via](reader) })).status).toBe(404);

      const own = await t.request(`/api/wishlist/${added.insertedId}`, { method: 'DELETE', headers: auth[via](reader) });
      expect(own.status).toBe(200);
      expect(await own.json()).toEqual({ deletedCount: 1 });
      expect((await t.request(`/api/wishlist/${added.insertedId}`, { method: 'DELETE', headers: auth[via](reader) })).status).toBe(404);
      expect((await t.request(`/api/wishlist/${reader.user.email}`, { headers: auth[via](reader) })).headers.get('x-total-count')).toBe('0');
    });
  }

  it('refuses anonymous adds, unknown and hidden blogs, and bad payloads', async () => {
    const reader = await t.createUser();
    const headers = auth.cookie(reader);
    expect((await t.request('/api/wishlist', { method: 'POST', json: homePayload(publicBlog) })).status).toBe(401);
    expect((await t.request('/api/wishlist', { method: 'POST', headers, json: homePayload('00000000-0000-0000-0000-000000000000') })).status).toBe(404);
    expect((await t.request('/api/wishlist', { method: 'POST', headers, json: homePayload(hiddenBlog) })).status).toBe(404);

    const missing = await t.request('/api/wishlist', { method: 'POST', headers, json: { title: 'x' } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: 'blogId', code: 'bad_request' });
    const badCount = await t.request('/api/wishlist', { method: 'POST', headers, json: { ...allBlogsPayload(publicBlog), likeCount: 'many' } });
    expect(badCount.status).toBe(400);
    expect(await badCount.json()).toMatchObject({ field: 'likeCount' });
    const badDate = await t.request('/api/wishlist', { method: 'POST', headers, json: { ...homePayload(publicBlog), createdAt: 'yesterday' } });
    expect(await badDate.json()).toMatchObject({ field: 'createdAt' });
    expect((await t.request('/api/wishlist', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{' })).status).toBe(400);
    expect((await t.request(`/api/wishlist/${reader.user.email}`, { headers })).headers.get('x-total-count')).toBe('0');
  });

  it('lets the owner keep their own hidden blog, and hides a blog hidden later from others', async () => {
    const ownHidden = await t.request('/api/wishlist', { method: 'POST', headers: auth.cookie(writer), json: homePayload(hiddenBlog) });
    expect(ownHidden.status).toBe(201);

    const base = { category: 'Education' as const, type: 'Video' as const, short_description: 'Soon private.', long_description: 'x', photo: '/uploads/a.webp' };
    const { insertedId } = await createBlog(t.context(writer.user), { ...base, title: 'Going dark', availability: 'Public' });
    const reader = await t.createUser();
    expect((await t.request('/api/wishlist', { method: 'POST', headers: auth.cookie(reader), json: homePayload(insertedId) })).status).toBe(201);
    await updateBlog(t.context(writer.user), insertedId, { availability: 'Hidden' });
    const list = await t.request(`/api/wishlist/${reader.user.email}`, { headers: auth.cookie(reader) });
    expect(list.headers.get('x-total-count')).toBe('0');
    expect(await list.json()).toEqual([]);
  });

  it('reads through the blogs’ visibility rule: a blog a moderator removed leaves readers’ wishlists and comes back when restored; its writer keeps it', async () => {
    const base = { category: 'Education' as const, type: 'Video' as const, short_description: 'Soon removed.', long_description: 'x', photo: '/uploads/r.webp' };
    const { insertedId } = await createBlog(t.context(writer.user), { ...base, title: 'Spam soon removed', availability: 'Public' });
    const [reader, admin] = [await t.createUser(), await t.createUser()];
    await setAdminByOperator(t.context(null), admin.user.email, true);
    for (const who of [reader, writer]) expect((await t.request('/api/wishlist', { method: 'POST', headers: auth.cookie(who), json: homePayload(insertedId) })).status).toBe(201);
    const titles = async (who: TestUser) => {
      const res = await t.request(`/api/wishlist/${who.user.email}?limit=100`, { headers: auth.bearer(who) });
      return { total: res.headers.get('x-total-count'), ids: ((await res.json()) as { blogId: string }[]).map((i) => i.blogId) };
    };
    expect((await titles(reader)).ids).toContain(insertedId);
    await hideContent(t.context(admin.user), 'blog', insertedId, { reason: 'Spam links' });
    expect(await titles(reader)).toEqual({ total: '0', ids: [] });
    expect((await titles(writer)).ids).toContain(insertedId);
    await restoreContent(t.context(admin.user), 'blog', insertedId, { reason: 'Appeal upheld' });
    expect((await titles(reader)).ids).toEqual([insertedId]);
  });

  it('pages long lists with X-Total-Count and Link', async () => {
    const reader = await t.createUser();
    const ctx = t.context(writer.user);
    const base = { category: 'Personal' as const, type: 'Mini blog' as const, short_description: 's', long_description: 'l', photo: '/uploads/p.webp', availability: 'Public' as const };
    for (let i = 0; i < 5; i += 1) {
      const { insertedId } = await createBlog(ctx, { ...base, title: `Blog ${i}` });
      expect((await t.request('/api/wishlist', { method: 'POST', headers: auth.bearer(reader), json: allBlogsPayload(insertedId) })).status).toBe(201);
    }
    const res = await t.request(`/api/wishlist/${reader.user.email}?page=2&limit=2`, { headers: auth.bearer(reader) });
    expect(res.headers.get('x-total-count')).toBe('5');
    expect(((await res.json()) as unknown[]).length).toBe(2);
    const link = res.headers.get('link')!;
    expect(link).toContain('page=3&limit=2>; rel="next"');
    expect(link).toContain('page=1&limit=2>; rel="prev"');
    expect(link).toContain('page=3&limit=2>; rel="last"');
    expect((await t.request(`/api/wishlist/${reader.user.email}?limit=1000`, { headers: auth.bearer(reader) })).status).toBe(400);
  });
});
