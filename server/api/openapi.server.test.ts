import sharp from 'sharp';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { z } from 'zod';
import type { TestUser } from '#test/test-app';
import { setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { buildOpenApiDocument, OPERATIONS } from './openapi.server';

const templated = (path: string) => path.replace(/:(\w+)/g, '{$1}');
// Routes that are not API operations of their own: the auth library's catch-all (its endpoints
// are documented one by one), and the documentation itself.
const NOT_OPERATIONS = new Set(['/api/auth/*', '/api/*', '/api/openapi.json', '/api/docs']);

describeOnDialects('the OpenAPI document on %s', (t, dialect) => {
  it('lists every registered /api route, and documents nothing that is not served', () => {
    const registered = new Set(
      t.app.routes.filter((r) => r.path.startsWith('/api') && r.method !== 'ALL' && !NOT_OPERATIONS.has(r.path)).map((r) => `${r.method.toLowerCase()} ${templated(r.path)}`),
    );
    const documented = new Set(OPERATIONS.map((op) => `${op.method} ${op.path}`));
    expect([...registered].filter((r) => !documented.has(r))).toEqual([]);
    const servedByAuthLibrary = (op: string) => op.split(' ')[1]!.startsWith('/api/auth/');
    expect([...documented].filter((d) => !registered.has(d) && !servedByAuthLibrary(d))).toEqual([]);
  });

  it('serves the document and a readable page', async () => {
    const res = await t.request('/api/openapi.json');
    const doc = (await res.json()) as ReturnType<typeof buildOpenApiDocument>;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/blogs/{id}');
    for (const operations of Object.values(doc.paths)) {
      for (const op of Object.values(operations) as { responses: object; summary: string }[]) {
        expect(op.summary.length).toBeGreaterThan(5);
        expect(Object.keys(op.responses).length).toBeGreaterThan(0);
      }
    }
    const page = await t.request('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/api/blogs/{id}');
  });

  it('describes the real responses: every status documented, every body valid', async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    const checked: string[] = [];
    const call = async (method: string, template: string, path: string, init: { user?: TestUser; json?: unknown; body?: BodyInit } = {}) => {
      const res = await t.request(path, {
        method: method.toUpperCase(),
        json: init.json,
        body: init.body,
        headers: init.user ? { authorization: `Bearer ${init.user.token}` } : {},
      });
      const op = OPERATIONS.find((o) => o.method === method && o.path === template);
      expect(op, `${method} ${template} is documented`).toBeDefined();
      const documented = op!.responses[res.status];
      expect(documented, `${method} ${template} answered ${res.status}, which is not documented`).toBeDefined();
      const body = res.headers.get('content-type')?.includes('json') ? await res.json() : undefined;
      if (documented!.schema) {
        const schema = documented!.list ? z.array(documented!.schema) : documented!.schema;
        const parsed = schema.safeParse(body);
        expect(parsed.success, `${method} ${template} ${res.status}: ${parsed.error?.message}\n${JSON.stringify(body)}`).toBe(true);
      }
      checked.push(`${method} ${template} ${res.status}`);
      return body as Record<string, unknown>;
    };

    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#f08c00' } }).png().toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'sun.png');
    const image = (await call('post', '/api/images', '/api/images', { user: owner, body: form })) as { data: { url: string } };
    const blog = {
      title: 'Documented dusk',
      category: 'Travelling & Photography',
      type: 'Photo',
      short_description: 'A short one',
      long_description: '# Long\n\nMarkdown *here*.',
      availability: 'Public',
      photo: image.data.url,
    };
    const { insertedId: id } = (await call('post', '/api/blogs', '/api/blogs', { user: owner, json: blog })) as { insertedId: string };
    await call('post', '/api/blogs', '/api/blogs', { json: blog });
    await call('post', '/api/blogs', '/api/blogs', { user: owner, json: { ...blog, category: 'Gossip' } });
    await call('get', '/api/blogs', '/api/blogs?page=1&limit=5');
    await call('get', '/api/blogs', '/api/blogs?limit=0');
    await call('get', '/api/blogs', '/api/blogs?q=markdown&limit=5');
    await call('get', '/api/blogs', `/api/blogs?q=${'x'.repeat(300)}`);
    await call('get', '/api/recent-blog', '/api/recent-blog');
    await call('get', '/api/featuredblogs', '/api/featuredblogs', { user: other });
    await call('put', '/api/blogs/{id}', `/api/blogs/${id}`, { user: owner, json: { title: 'Documented dawn' } });
    await call('put', '/api/blogs/{id}', `/api/blogs/${id}`, { user: other, json: { title: 'Mine now' } });
    await call('patch', '/api/blogs/{id}', `/api/blogs/${id}`, { user: other, json: { commentText: 'Lovely' } });
    await call('patch', '/api/blogs/{id}', `/api/blogs/${id}`, { user: owner, json: { commentText: 'Mine' } });
    await call('get', '/api/blogs/{id}', `/api/blogs/${id}`);
    // The owner's own `email`, and the commenter's own `userEmail` with `isMine`, fit the document too.
    expect(await call('get', '/api/blogs/{id}', `/api/blogs/${id}`, { user: owner })).toMatchObject({ isOwner: true, email: owner.user.email });
    const seenByCommenter = await call('get', '/api/blogs/{id}', `/api/blogs/${id}`, { user: other });
    expect(seenByCommenter.comments).toEqual([expect.objectContaining({ isMine: true, userEmail: other.user.email })]);
    // Threads (docs/decisions/060): every answer of the reply, like, pin and hide operations.
    const top = (seenByCommenter.comments as { _id: string }[])[0]!._id;
    const on = (what: string, comment = top) => `/api/comments/${comment}/${what}`;
    const { insertedId: reply } = (await call('post', '/api/comments/{id}/replies', on('replies'), { user: owner, json: { commentText: 'Thank you' } })) as { insertedId: string };
    await call('post', '/api/comments/{id}/replies', on('replies'), { user: other, json: {} });
    await call('post', '/api/comments/{id}/replies', on('replies', crypto.randomUUID()), { user: other, json: { commentText: 'x' } });
    expect(((await call('get', '/api/comments/{id}/thread', on('thread'))).comments as unknown[]).length).toBe(2);
    await call('get', '/api/comments/{id}/thread', on('thread', crypto.randomUUID()));
    await call('post', '/api/comments/{id}/like', on('like'), { user: owner });
    await call('post', '/api/comments/{id}/like', on('like'), { user: other });
    await call('post', '/api/comments/{id}/like', on('like'));
    await call('delete', '/api/comments/{id}/like', on('like'), { user: owner });
    await call('post', '/api/comments/{id}/pin', on('pin'), { user: owner });
    await call('post', '/api/comments/{id}/pin', on('pin', reply), { user: owner });
    await call('post', '/api/comments/{id}/pin', on('pin'), { user: other });
    await call('delete', '/api/comments/{id}/pin', on('pin'), { user: owner });
    await call('post', '/api/comments/{id}/hide', on('hide'), { user: owner });
    await call('post', '/api/comments/{id}/replies', on('replies'), { user: other, json: { commentText: 'Why?' } });
    await call('post', '/api/comments/{id}/pin', on('pin'), { user: owner });
    await call('delete', '/api/comments/{id}/hide', on('hide'), { user: owner });
    await call('delete', '/api/comments/{id}/hide', on('hide', crypto.randomUUID()), { user: owner });
    await call('delete', '/api/comments/{id}', `/api/comments/${reply}`, { user: owner });
    await call('get', '/api/blogs/{id}', '/api/blogs/not-an-id');
    await call('get', '/api/blogs/{id}', `/api/blogs/${crypto.randomUUID()}`);
    await call('patch', '/api/blogs/{id}/view', `/api/blogs/${id}/view`);
    await call('patch', '/api/blogs/liked/{blogId}', `/api/blogs/liked/${id}`, { user: other });
    await call('patch', '/api/blogs/liked/{blogId}', `/api/blogs/liked/${id}`);
    await call('get', '/api/blogs/liked/{email}', `/api/blogs/liked/${encodeURIComponent(other.user.email)}`, { user: other });
    await call('get', '/api/blogs/liked/{email}', `/api/blogs/liked/${encodeURIComponent(other.user.email)}`, { user: owner });
    await call('delete', '/api/blogs/liked/{blogId}', `/api/blogs/liked/${id}`, { user: other });
    const { insertedId: itemId } = (await call('post', '/api/wishlist', '/api/wishlist', {
      user: other,
      json: { blogId: id, title: 'x', photo: null, email: other.user.email, category: 'Personal', likeCount: 3, description: 'd' },
    })) as { insertedId: string };
    await call('post', '/api/wishlist', '/api/wishlist', { user: other, json: { blogId: id, title: 'x', createdAt: new Date().toISOString() } });
    await call('get', '/api/wishlist/{email}', `/api/wishlist/${encodeURIComponent(other.user.email)}`, { user: other });
    await call('get', '/api/wishlist/{email}', `/api/wishlist/${encodeURIComponent(other.user.email)}`, { user: owner });
    await call('delete', '/api/wishlist/{id}', `/api/wishlist/${itemId}`, { user: owner });
    await call('delete', '/api/wishlist/{id}', `/api/wishlist/${itemId}`, { user: other });
    await call('post', '/api/subscribers', '/api/subscribers', { json: { email: `Fan-${dialect}@Example.com` } });
    await call('post', '/api/subscribers', '/api/subscribers', { json: { email: `fan-${dialect}@example.com` } });
    await call('post', '/api/subscribers', '/api/subscribers', { json: { email: 'not an email' } });
    await call('post', '/api/jwt', '/api/jwt', { user: owner, json: { email: owner.user.email } });
    await call('post', '/api/jwt', '/api/jwt', { json: { email: owner.user.email } });
    await call('post', '/api/users/jwt', '/api/users/jwt', { user: owner, json: { email: other.user.email } });
    await call('post', '/api/users', '/api/users', { user: owner, json: { email: owner.user.email, name: 'Owner', photo: null, uid: 'u-1' } });
    await call('get', '/api/update/{email}', `/api/update/${encodeURIComponent(owner.user.email)}`, { user: owner });
    await call('patch', '/api/update/{email}', `/api/update/${encodeURIComponent(owner.user.email)}`, { user: owner, json: { name: 'Renamed' } });
    await call('patch', '/api/update/{email}', `/api/update/${encodeURIComponent(owner.user.email)}`, { user: other, json: { name: 'Hijack' } });
    // Moderation (issue 19): the owner is made admin by the operator, `other` reports.
    await setAdminByOperator(t.context(null), owner.user.email, true);
    const why = { reason: 'Checked by the document test' };
    const commentId = ((await call('get', '/api/blogs/{id}', `/api/blogs/${id}`, { user: owner })).comments as { _id: string }[])[0]!._id;
    await call('post', '/api/reports', '/api/reports', { user: other, json: { targetType: 'blog', targetId: id, reason: 'Spam', details: 'Links' } });
    await call('post', '/api/reports', '/api/reports', { user: other, json: { targetType: 'blog', targetId: id, reason: 'Spam' } });
    await call('post', '/api/reports', '/api/reports', { user: other, json: { targetType: 'comment', targetId: 'nope', reason: 'Spam' } });
    await call('post', '/api/reports', '/api/reports', { user: other, json: { targetType: 'blog', targetId: id, reason: 'Because' } });
    await call('post', '/api/reports', '/api/reports', { json: { targetType: 'blog', targetId: id, reason: 'Spam' } });
    const queue = (await call('get', '/api/moderation/reports', '/api/moderation/reports', { user: owner })) as unknown as { reports: { id: string }[] }[];
    await call('get', '/api/moderation/reports', '/api/moderation/reports', { user: other });
    await call('get', '/api/moderation/reports', '/api/moderation/reports');
    await call('post', '/api/moderation/reports/{id}/dismiss', `/api/moderation/reports/${queue[0]!.reports[0]!.id}/dismiss`, { user: owner, json: why });
    await call('post', '/api/moderation/reports/{id}/dismiss', `/api/moderation/reports/${queue[0]!.reports[0]!.id}/dismiss`, { user: owner, json: why });
    await call('post', '/api/moderation/{type}/{id}/hide', `/api/moderation/comments/${commentId}/hide`, { user: owner, json: why });
    await call('post', '/api/moderation/{type}/{id}/hide', `/api/moderation/comments/${commentId}/hide`, { user: other, json: why });
    await call('post', '/api/moderation/{type}/{id}/hide', `/api/moderation/blogs/${id}/hide`, { user: owner, json: {} });
    await call('post', '/api/moderation/{type}/{id}/hide', `/api/moderation/blogs/${crypto.randomUUID()}/hide`, { user: owner, json: why });
    expect((await call('get', '/api/blogs/{id}', `/api/blogs/${id}`, { user: other })).comments).toEqual([expect.objectContaining({ removed: why, isMine: true })]);
    await call('post', '/api/moderation/{type}/{id}/restore', `/api/moderation/comments/${commentId}/restore`, { user: owner, json: why });
    await call('put', '/api/comments/{id}', `/api/comments/${commentId}`, { user: other, json: { commentText: 'Lovely, edited' } });
    await call('put', '/api/comments/{id}', `/api/comments/${commentId}`, { user: owner, json: { commentText: 'Mine now' } });
    await call('put', '/api/comments/{id}', `/api/comments/${commentId}`, { user: other, json: {} });
    await call('delete', '/api/comments/{id}', `/api/comments/${crypto.randomUUID()}`, { user: other });
    await call('delete', '/api/comments/{id}', `/api/comments/${commentId}`);
    await call('post', '/api/moderation/{type}/{id}/delete', `/api/moderation/comments/${commentId}/delete`, { user: owner, json: why });
    await call('post', '/api/moderation/users/{id}/comment-ban', `/api/moderation/users/${other.user.id}/comment-ban`, { user: owner, json: why });
    await call('post', '/api/moderation/users/{id}/comment-unban', `/api/moderation/users/${other.user.id}/comment-unban`, { user: owner, json: why });
    await call('post', '/api/moderation/users/{id}/suspend', `/api/moderation/users/${owner.user.id}/suspend`, { user: other, json: why });
    await call('get', '/api/moderation/moderators', '/api/moderation/moderators', { user: owner });
    await call('post', '/api/moderation/moderators', '/api/moderation/moderators', { user: owner, json: { email: other.user.email } });
    await call('post', '/api/moderation/moderators', '/api/moderation/moderators', { user: owner, json: { email: 'nobody@example.com' } });
    await call('delete', '/api/moderation/moderators/{id}', `/api/moderation/moderators/${other.user.id}`, { user: owner, json: why });
    // The spam hold (decision 029): nothing waits here (the hold is off), so approving a comment is 404.
    await call('get', '/api/moderation/pending', '/api/moderation/pending', { user: owner });
    await call('get', '/api/moderation/pending', '/api/moderation/pending', { user: other });
    await call('post', '/api/moderation/{type}/{id}/approve', `/api/moderation/comments/${commentId}/approve`, { user: owner, json: why });
    await call('post', '/api/moderation/users/{id}/approve', `/api/moderation/users/${other.user.id}/approve`, { user: owner, json: why });
    await call('post', '/api/moderation/users/{id}/approve', `/api/moderation/users/${owner.user.id}/approve`, { user: other, json: why });
    await call('get', '/api/moderation/log', '/api/moderation/log?page=1&limit=5', { user: owner });
    await call('get', '/api/moderation/log', '/api/moderation/log', { user: other });
    await call('delete', '/api/blogs/{id}', `/api/blogs/${id}`, { user: other });
    await call('delete', '/api/blogs/{id}', `/api/blogs/${id}`, { user: owner });
    await call('post', '/api/moderation/users/{id}/suspend', `/api/moderation/users/${other.user.id}/suspend`, { user: owner, json: { reason: 'Done', days: 1 } });
    await call('post', '/api/moderation/users/{id}/unsuspend', `/api/moderation/users/${other.user.id}/unsuspend`, { user: owner, json: why });
    expect(checked.length).toBe(101);
  });
});
