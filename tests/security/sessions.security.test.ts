import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { loadConfig } from '#server/config.server';
import { createDeps } from '#server/context.server';
import { createHttpApp, type HttpApp } from '#server/http/http.server';
import { createLogger } from '#server/logger.server';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#test/test-app';

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.includes('session_token='))?.split(';')[0];

describe.each(TEST_DIALECTS)('sessions on %s', (dialect) => {
  let t: TestApp;
  let second: { app: HttpApp; close(): Promise<void> };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    // A second instance on the same database: what one instance revokes, the other must refuse.
    const deps = await createDeps(loadConfig({ ...t.scratch.env, SESSION_SECRET: t.deps.config.SESSION_SECRET }), createLogger('silent'));
    second = { app: createHttpApp(deps), close: () => deps.database.close() };
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  const whoAmI = async (app: HttpApp, headers: Record<string, string>) => {
    const res = await app.fetch(new Request(`${TEST_ORIGIN}/api/auth/get-session`, { headers }), { incoming: { socket: { remoteAddress: '127.0.0.1' } } });
    const body = (await res.json()) as { user?: { email: string } } | null;
    return body?.user?.email ?? null;
  };
  /**
   * Who the second instance says the credentials are, once it says null or 60 s have passed: on
   * PostgreSQL it hears of a session ended elsewhere by its database's notification, a moment after
   * the ending instance answered (docs/decisions/044), which on a loaded machine may take seconds;
   * the instance that ended it is asked strictly.
   */
  const whoAmIOnSecondOnceEnded = async (headers: Record<string, string>) => {
    const start = performance.now();
    let email = await whoAmI(second.app, headers);
    while (email !== null && performance.now() - start < 60_000) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      email = await whoAmI(second.app, headers);
    }
    return email;
  };
  const signIn = (email: string, password: string, cookie?: string) =>
    t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password }, headers: cookie ? { cookie } : {} });

  it('gives a new session id at every sign-in, whatever cookie the browser brought', async () => {
    const { user, password, cookie: planted } = await t.createUser();
    const res = await signIn(user.email, password, planted);
    const fresh = sessionCookie(res);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(planted);
    const forged = await signIn(user.email, password, 'afterglow.session_token=attacker-chosen-value');
    expect(sessionCookie(forged)).not.toContain('attacker-chosen-value');
  });

  it('refuses the cookie and its bearer token after logout, on every instance', async () => {
    const { user, cookie, token } = await t.createUser();
    expect(await whoAmI(t.app, { cookie })).toBe(user.email);
    expect(await whoAmI(second.app, { authorization: `Bearer ${token}` })).toBe(user.email);
    const out = await t.request('/api/auth/sign-out', { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
    expect(await whoAmI(t.app, { cookie })).toBeNull();
    expect(await whoAmI(t.app, { authorization: `Bearer ${token}` })).toBeNull();
    expect(await whoAmIOnSecondOnceEnded({ cookie })).toBeNull();
    expect(await whoAmIOnSecondOnceEnded({ authorization: `Bearer ${token}` })).toBeNull();
    const api = await second.app.fetch(
      new Request(`${TEST_ORIGIN}/api/jwt`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email }) }),
      { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
    );
    expect(api.status).toBe(401);
    console.log(`sessions (${dialect}): new id at login; cookie and bearer refused after logout on 2 of 2 instances`);
  });

  it('can end every other session when the password changes', async () => {
    const { user, password, cookie: laptop } = await t.createUser();
    const phone = sessionCookie(await signIn(user.email, password))!;
    // The second instance has seen (and remembers) the phone's session before it is ended.
    expect(await whoAmI(second.app, { cookie: phone })).toBe(user.email);
    const res = await t.request('/api/auth/change-password', {
      method: 'POST',
      headers: { cookie: laptop },
      json: { currentPassword: password, newPassword: 'Sunset456', revokeOtherSessions: true },
    });
    expect(res.status).toBe(200);
    expect(await whoAmI(t.app, { cookie: phone })).toBeNull();
    expect(await whoAmIOnSecondOnceEnded({ cookie: phone })).toBeNull();
    expect((await signIn(user.email, password)).status).toBe(401);
    expect((await signIn(user.email, 'Sunset456')).status).toBe(200);
  });
});
