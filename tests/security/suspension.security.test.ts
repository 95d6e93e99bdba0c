import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { grantModerator, setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { refusesSuspended } from '#server/http/api/endpoints.server';
import { OPERATIONS } from '#server/http/api/operations.server';
import { ACCOUNT_WRITE_ENDPOINTS } from '~/features/users/account-rules.service.server';
import { loadConfig } from '#server/config.server';
import { type AppDeps, createDeps } from '#server/context.server';
import { createHttpApp } from '#server/http/http.server';
import { createLogger } from '#server/logger.server';
import { createTestApp, TEST_ORIGIN, type TestApp, type TestUser } from '#test/test-app';

/**
 * docs/decisions/028 and 048: a suspension ends the user's open sessions, cookie and bearer, on every instance at
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
  let wishlistId = '';
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
    wishlistId = ((await (await t.request('/api/wishlist', { method: 'POST', headers: { cookie: spammer.cookie }, json: { blogId } })).json()) as { insertedId: string }).insertedId;
  });
  afterAll(async () => {
    await second?.deps.database.close();
    await t?.close();
  });

  /** Everything of the user's in the tables a write could touch. */
  const rowsOf = async (userId: string) => {
    const { db } = t.deps.database;
    return {
      blogs: await db.selectFrom('blogs').selectAll().where('owner_id', '=', userId).execute(),
      comments: await db.selectFrom('comments').selectAll().where('user_id', '=', userId).execute(),
      likes: await db.selectFrom('likes').selectAll().where('user_id', '=', userId).execute(),
      wishlist: await db.selectFrom('wishlist').selectAll().where('user_id', '=', userId).execute(),
      profiles: await db.selectFrom('profiles').selectAll().where('user_id', '=', userId).execute(),
      follows: await db.selectFrom('follows').selectAll().where('follower_id', '=', userId).execute(),
      reports: await db.selectFrom('reports').selectAll().where('reporter_id', '=', userId).execute(),
    };
  };

  const writes = (user: TestUser) => [
    { name: 'write a blog', method: 'POST', path: '/api/blogs', json: blog },
    { name: 'comment', method: 'PATCH', path: `/api/blogs/${blogId}`, json: { commentText: 'Buy now' } },
    { name: 'like', method: 'PATCH', path: `/api/blogs/liked/${blogId}` },
    { name: 'wishlist', method: 'POST', path: '/api/wishlist', json: { blogId } },
    { name: 'upload', method: 'POST', path: '/api/images' },
    { name: 'change the profile', method: 'PATCH', path: `/api/update/${encodeURIComponent(user.user.email)}`, json: { name: 'Renamed' } },
    { name: 'report', method: 'POST', path: '/api/reports', json: { targetType: 'blog', targetId: blogId, reason: 'Spam' } },
    { name: 'save the user record (name and photo)', method: 'POST', path: '/api/users', json: { email: user.user.email, name: 'Renamed', photo: 'https://images.example.com/new.webp' } },
    { name: 'remove a wishlist item', method: 'DELETE', path: `/api/wishlist/${wishlistId}` },
    // better-auth's own account changes (ACCOUNT_WRITE_ENDPOINTS of the users feature, checked from better-auth's hook).
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

  it('refuses a suspended account every state-changing call that needs sign-in, as declared, before reading its input', async () => {
    const suspect = await t.createUser({ name: 'Suspect' });
    expect((await t.request(`/api/moderation/users/${suspect.user.id}/suspend`, { method: 'POST', headers: { cookie: admin.cookie }, json: { reason: 'Spam run' } })).status).toBe(200);
    const signIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: suspect.user.email, password: suspect.password } });
    const token = signIn.headers.get('set-auth-token')!;
    const before = await rowsOf(suspect.user.id);
    // The list comes from the declarations that register the routes, not from a copy here.
    const ours = OPERATIONS.filter((op) => refusesSuspended(op) && !op.path.startsWith('/api/auth/'));
    expect(ours.length).toBeGreaterThan(25);
    const wrong: string[] = [];
    for (const op of ours) {
      const path = op.path.replace(/\{email\}/g, encodeURIComponent(suspect.user.email)).replace(/\{type\}/g, 'blogs').replace(/\{\w+\}/g, blogId);
      const res = await t.request(path, { method: op.method.toUpperCase(), headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"unexpected":[1,2,3]}' });
      const body = (await res.json()) as { message: string };
      if (res.status !== 403 || body.message !== MESSAGES.suspended(null)) wrong.push(`${op.method} ${op.path}: ${res.status} ${body.message}`);
    }
    // better-auth serves its own: every declared account change is one its hook refuses.
    const theirs = OPERATIONS.filter((op) => refusesSuspended(op) && op.path.startsWith('/api/auth/'));
    for (const op of theirs) if (!ACCOUNT_WRITE_ENDPOINTS.has(op.path.slice('/api/auth'.length))) wrong.push(`${op.method} ${op.path}: not refused by the account hook`);
    console.log(`suspension (${dialect}): ${wrong.length} allowed / ${ours.length + theirs.length} declared writes refused to a suspended account`);
    expect(wrong).toEqual([]);
    expect(await rowsOf(suspect.user.id)).toEqual(before);
  });
});
