import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { OPERATIONS } from './operations.server';

describeOnDialects('notifications API on %s', (t) => {
  let writer: TestUser;
  let fans: TestUser[];
  /** Calls as `user` and checks the answer against the operation's documented status and schema. */
  const call = async (method: 'get' | 'post', template: string, path: string, user?: TestUser, json?: unknown) => {
    const res = await t.request(path, { method: method.toUpperCase(), json, headers: user ? { authorization: `Bearer ${user.token}` } : {} });
    const documented = OPERATIONS.find((o) => o.method === method && o.path === template)!.responses[res.status];
    expect(documented, `${method} ${path} answered ${res.status}`).toBeDefined();
    const body = await res.json();
    const schema = documented!.list ? z.array(documented!.schema!) : documented!.schema!;
    expect(schema.safeParse(body).success, JSON.stringify(body)).toBe(true);
    return { status: res.status, body, headers: res.headers };
  };

  beforeAll(async () => {
    writer = await t.createUser({ name: 'Writer' });
    fans = [await t.createUser({ name: 'Jonas' }), await t.createUser({ name: 'Ann' }), await t.createUser({ name: 'Bo' })];
    const base = { category: 'Personal' as const, type: 'Mini blog' as const, short_description: 's', long_description: 'l', photo: '/uploads/a.webp', availability: 'Public' as const };
    const { insertedId } = await createBlog(t.context(writer.user), { ...base, title: 'Lanterns' });
    for (const fan of fans) await likeBlog(t.context(fan.user), insertedId);
    await t.runJobs();
  });

  it('lists the caller’s own notifications, grouped, paged, and counts the unread', async () => {
    const list = await call('get', '/api/notifications', '/api/notifications?page=1&limit=10', writer);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body).toEqual([expect.objectContaining({ kind: 'like_post', actorCount: 3, read: false })]);
    expect((list.body as { text: string }[])[0]!.text).toMatch(/ and 2 others liked “Lanterns”$/);
    expect((await call('get', '/api/notifications', '/api/notifications', fans[0])).body).toEqual([]);
    expect((await call('get', '/api/notifications/unread-count', '/api/notifications/unread-count', writer)).body).toEqual({ unread: 1 });
  });

  it('marks read: another member’s ids change nothing, then all of the caller’s', async () => {
    const [group] = (await call('get', '/api/notifications', '/api/notifications', writer)).body as { id: string }[];
    expect((await call('post', '/api/notifications/read', '/api/notifications/read', fans[0], { ids: [group!.id] })).body).toEqual({ modifiedCount: 0 });
    expect((await call('post', '/api/notifications/read', '/api/notifications/read', writer, {})).body).toEqual({ modifiedCount: 1 });
    expect((await call('get', '/api/notifications/unread-count', '/api/notifications/unread-count', writer)).body).toEqual({ unread: 0 });
  });

  it('refuses the signed-out and bad input with a clear 4xx', async () => {
    expect((await call('get', '/api/notifications', '/api/notifications')).status).toBe(401);
    expect((await call('get', '/api/notifications/unread-count', '/api/notifications/unread-count')).status).toBe(401);
    expect((await call('post', '/api/notifications/read', '/api/notifications/read', undefined, {})).status).toBe(401);
    expect((await call('get', '/api/notifications', '/api/notifications?limit=500', writer)).status).toBe(400);
    expect((await call('post', '/api/notifications/read', '/api/notifications/read', writer, { ids: 'all' })).status).toBe(400);
  });
});
