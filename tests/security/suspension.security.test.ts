import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { grantModerator, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { MESSAGES } from '~/lib/messages';
import { loadConfig } from '#server/config.server';
import { type AppDeps, createDeps } from '#server/context.server';
import { createHttpApp } from '#server/http.server';
import { createLogger } from '#server/logger.server';
import { createTestApp, TEST_ORIGIN, type TestApp, type TestUser } from '#test/test-app';

/**
 * Issue 19: a suspension ends the user's open sessions, cookie and bearer, on every instance at
 * once (two instances on one database, each with its own session cache), and a new sign-in can
 * read but every write answers 403 with the suspension's message: ours, and better-auth's own
 * account changes.
 */
describe.each(TEST_DIALECTS)('suspension on two instances on %s', (dialect) => {
  let t: TestApp;
  let second: { deps: AppDeps; fetch: (path: string, init: RequestInit & { json?: unknown }) => Promise<Response> };
  let admin: TestUser;
  let spammer: TestUser;
  let blogId = '';
  const blog = { title: 'Cheap pills', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const deps = await createDeps(loadConfig(t.scratch.env), createLogger('silent'));
    const app = createHttpApp(deps);
    second = {
      deps,
      fetch: (path, init) => {
        const headers = new Headers(init.headers);
        headers.set('origin', TEST_ORIGIN);
        if (init.json !== undefined) headers.set('content-type', 'application/json');
        const body = init.json === undefined ? undefined : JSON.stringify(init.json);
        return Promise.resolve(app.fetch(new Request(new URL(path, TEST_ORIGIN), { ...init, headers, body }), { incoming: { socket: { remoteAddress: '127.0.0.1' } } }));
      },
    };
    admin = await t.createUser({ name: 'Admin' });
    spammer = await t.createUser({ name: 'Spammer' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    await grantModerator(t.context(admin.user), { email: (await t.createUser()).user.email, reason: 'Spare' });
    blogId = ((await (await t.request('/api/blogs', { method: 'POST', headers: { cookie: admin.cookie }, json: blog })).json()) as { insertedId: string }).insertedId;
  });
  afterAll(async () => {
    await second?.deps.database.close();
    await t?.close();
  });

  const writes = (user: TestUser) => [
    { name: 'write a blog', method: 'POST', path: '/api/blogs', json: blog },
    { name: 'comment', method: 'PATCH', path: `/api/blogs/${blogId}`, json: { commentText: 'Buy now' } },
    { name: 'like', method: 'PATCH', path: `/api/blogs/liked/${blogId}` },
    { name: 'wishlist', method: 'POST', path: '/api/wishlist', json: { blogId } },
    { name: 'upload', method: 'POST', path: '/api/images' },
    { name: 'change the profile', method: 'PATCH', path: `/api/update/${encodeURIComponent(user.user.email)}`, json: { name: 'Renamed' } },
    { name: 'report', method: 'POST', path: '/api/reports', json: { targetType: 'blog', targetId: blogId, reason: 'Spam' } },
    // better-auth's own account changes (server/auth.server.ts ACCOUNT_WRITE_ENDPOINTS, checked inside better-auth).
    { name: 'rename the account', method: 'POST', path: '/api/auth/update-user', json: { name: 'Renamed' } },
    { name: 'change the password', method: 'POST', path: '/api/auth/change-password', json: { currentPassword: user.password, newPassword: 'Evening456' } },
    { name: 'change the email', method: 'POST', path: '/api/auth/change-email', json: { newEmail: `moved-${user.user.id}@example.com` } },
    { name: 'turn on two-factor', method: 'POST', path: '/api/auth/two-factor/enable', json: { password: user.password } },
  ];
  const instances = () => [
    { name: 'instance A', fetch: t.request },
    { name: 'instance B', fetch: second.fetch },
  ];
  const credentials = (user: TestUser): { name: string; headers: Record<string, string> }[] => [
    { name: 'cookie', headers: { cookie: user.cookie } },
    { name: 'bearer', headers: { authorization: `Bearer ${user.token}` } },
  ];

  it('ends every session at once on both instances; a new sign-in reads but cannot write', async () => {
    // Both instances have the spammer's sessions in their caches.
    for (const instance of instances()) {
      for (const cred of credentials(spammer)) {
        expect((await instance.fetch(`/api/blogs/liked/${blogId}`, { method: 'PATCH', headers: cred.headers })).status).toBe(200);
      }
    }
    const suspended = await t.request(`/api/moderation/users/${spammer.user.id}/suspend`, { method: 'POST', headers: { cookie: admin.cookie }, json: { reason: 'Spam run' } });
    expect(suspended.status).toBe(200);

    let expected = 0;
    const allowed: string[] = [];
    for (const instance of instances()) {
      for (const cred of credentials(spammer)) {
        for (const w of writes(spammer)) {
          expected++;
          const res = await instance.fetch(w.path, { method: w.method, headers: cred.headers, json: w.json });
          if (res.status !== 401) allowed.push(`${w.name} (${cred.name}, ${instance.name}): ${res.status}`);
        }
      }
    }

    // Signing in again works (they may read), but every write is a 403 saying why.
    const signIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: spammer.user.email, password: spammer.password } });
    expect(signIn.status).toBe(200);
    const fresh = { ...spammer, cookie: signIn.headers.getSetCookie().find((c) => c.includes('session_token'))!.split(';')[0]!, token: signIn.headers.get('set-auth-token')! };
    for (const instance of instances()) {
      expect((await instance.fetch(`/api/blogs/${blogId}`, { method: 'GET', headers: { cookie: fresh.cookie } })).status).toBe(200);
      for (const cred of credentials(fresh)) {
        for (const w of writes(fresh)) {
          expected++;
          const res = await instance.fetch(w.path, { method: w.method, headers: cred.headers, json: w.json });
          const body = (await res.json()) as { message: string };
          if (res.status !== 403 || body.message !== MESSAGES.suspended(null)) allowed.push(`${w.name} (new ${cred.name}, ${instance.name}): ${res.status} ${body.message}`);
        }
      }
    }
    console.log(`suspension (${dialect}): ${allowed.length} allowed / ${expected} expected-denied on 2 instances`);
    expect(allowed).toEqual([]);
  });
});
