import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { MESSAGES } from '~/lib/texts/messages';
import { mailOrigin } from '~/features/mail/mail-templates.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { createTestApp, type TestApp } from '../tests/support/test-app';

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.includes('session_token='))?.split(';')[0];

describeOnDialects('accounts on %s', (t) => {
  it.each([
    ['short1A', MESSAGES.passwordHint],
    ['alllowercase1', MESSAGES.passwordHint],
    ['ALLUPPERCASE1', MESSAGES.passwordHint],
    ['NoDigitsHere', MESSAGES.passwordHint],
    [`Aa1${'x'.repeat(126)}`, 'Password must be at most 128 characters'],
  ])('refuses the password %j at sign-up on the server', async (password, message) => {
    const res = await t.request('/api/auth/sign-up/email', { method: 'POST', json: { email: `weak-${password.length}-${Math.random()}@example.com`, name: 'Weak', password } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  });

  it('accepts a password of 128 characters', async () => {
    const user = await t.createUser({ password: `Aa1${'x'.repeat(125)}` });
    expect(user.cookie).toContain('afterglow.session_token=');
  });

  it('sets an httpOnly, SameSite=Lax session cookie', async () => {
    const res = await t.request('/api/auth/sign-up/email', { method: 'POST', json: { email: `cookie-${Date.now()}@example.com`, name: 'C', password: 'Sunset123' } });
    const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token='))!;
    expect(cookie).toMatch(/^afterglow\.session_token=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('says an email is taken clearly', async () => {
    const { user } = await t.createUser();
    const res = await t.request('/api/auth/sign-up/email', { method: 'POST', json: { email: user.email, name: 'Again', password: 'Sunset123' } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { code: string }).code).toBe('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL');
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    const { user } = await t.createUser();
    const unknown = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: `nobody-${Date.now()}@example.com`, password: 'Sunset123' } });
    const wrong = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: user.email, password: 'Wrong1234' } });
    expect(unknown.status).toBe(wrong.status);
    expect(await unknown.json()).toEqual(await wrong.json());
  });

  it('issues a new session at every sign-in and records the last login', async () => {
    const created = await t.createUser();
    const signIn = () => t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: created.user.email, password: created.password }, headers: { cookie: created.cookie } });
    const first = sessionCookie(await signIn());
    const second = sessionCookie(await signIn());
    expect(first).toBeDefined();
    expect(new Set([created.cookie, first, second]).size).toBe(3);
    const row = await t.deps.database.db.selectFrom('profiles').selectAll().where('user_id', '=', created.user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: created.user.email, name: created.user.name, uid: created.user.id });
    expect(Date.now() - Date.parse(row.last_login_at!)).toBeLessThan(60_000);
  });

  it('resets a password through a single-use mailed link and ends every session', async () => {
    const created = await t.createUser();
    const otherDevice = sessionCookie(
      await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: created.user.email, password: created.password } }),
    )!;
    const outbox = path.join(t.scratch.dataDir, 'outbox');
    const ask = await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: created.user.email, redirectTo: '/reset-password' } });
    expect(ask.status).toBe(200);
    const unknown = await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email: `nobody-${Date.now()}@example.com`, redirectTo: '/reset-password' } });
    expect(await unknown.json()).toEqual(await ask.clone().json());
    await expect.poll(() => { try { return readdirSync(outbox).length; } catch { return 0; } }, { timeout: 30_000 }).toBe(1);
    const eml = readFileSync(path.join(outbox, readdirSync(outbox)[0]!), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(eml).toContain(`To: ${created.user.email}`);
    // Never the request's origin (afterglow.test): PUBLIC_URL, or localhost when it is unset.
    const origin = mailOrigin(t.deps.config);
    const link = eml.match(/http:\/\/\S+\/api\/auth\/reset-password\/\S+/)![0];
    expect(new URL(link).origin).toBe(origin);
    const follow = await t.request(link.replace(origin, ''), { redirect: 'manual' });
    expect(follow.status).toBe(302);
    const token = new URL(follow.headers.get('location')!, 'http://afterglow.test').searchParams.get('token')!;
    expect(token).toBeTruthy();

    const weak = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'weakpass' } });
    expect(weak.status).toBe(400);
    const reset = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'Evening456' } });
    expect(reset.status).toBe(200);
    const again = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'Evening789' } });
    expect(again.status).toBe(400);
    for (const cookie of [created.cookie, otherDevice]) {
      expect((await t.request(`/api/update/${created.user.email}`, { headers: { cookie } })).status).toBe(401);
    }
    const signIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: created.user.email, password: 'Evening456' } });
    expect(signIn.status).toBe(200);
  });
});

describe('rate limits on the account routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { RATE_LIMITS: 'on' });
  });
  afterAll(async () => t?.close());

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it.each([
    ['sign-in', '/api/auth/sign-in/email', RATE_LIMITS.signIn, { email: 'a@example.com', password: 'Wrong1234' }],
    ['sign-up', '/api/auth/sign-up/email', RATE_LIMITS.signUp, { email: 'x', name: 'x', password: 'x' }],
    ['reset request', '/api/auth/request-password-reset', RATE_LIMITS.resetRequest, { email: 'a@example.com', redirectTo: '/reset-password' }],
    ['reset', '/api/auth/reset-password', RATE_LIMITS.reset, { token: 'nope', newPassword: 'Sunset123' }],
  ])('limits %s to its rule per client address', async (_name, path, rule, json) => {
    const started = Date.now();
    for (let i = 0; i < rule.limit; i++) {
      const res = await t.request(path, { method: 'POST', json });
      expect(res.status).not.toBe(429);
      expect(res.headers.get('ratelimit-remaining')).toBe(String(rule.limit - i - 1));
    }
    const blocked = await t.request(path, { method: 'POST', json });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ message: MESSAGES.tooManyRequests, code: 'rate_limited' });
    const retry = Number(blocked.headers.get('retry-after'));
    // The window opened at the first attempt; password hashing makes the attempts take a while.
    expect(retry).toBeGreaterThanOrEqual(Math.floor((rule.windowMs - (Date.now() - started)) / 1000) - 1);
    expect(retry).toBeLessThanOrEqual(rule.windowMs / 1000);
    // X-Forwarded-For is not trusted without TRUST_PROXY: it cannot buy a fresh counter.
    expect((await t.request(path, { method: 'POST', json, headers: from('198.51.100.1') })).status).toBe(429);
  });

  it('counts behind a trusted proxy per forwarded client', async () => {
    const proxied = await createTestApp('sqlite', { RATE_LIMITS: 'on', TRUST_PROXY: '127.0.0.1' });
    try {
      const json = { email: 'a@example.com', password: 'Wrong1234' };
      for (let i = 0; i < RATE_LIMITS.signIn.limit; i++) {
        await proxied.request('/api/auth/sign-in/email', { method: 'POST', json, headers: from('198.51.100.7') });
      }
      expect((await proxied.request('/api/auth/sign-in/email', { method: 'POST', json, headers: from('198.51.100.7') })).status).toBe(429);
      // Another account: the same one would meet its per-account limit (EMAIL_RATE_LIMITS).
      const other = { ...json, email: 'b@example.com' };
      expect((await proxied.request('/api/auth/sign-in/email', { method: 'POST', json: other, headers: from('198.51.100.8') })).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('cannot be dodged by changing the case of the path', async () => {
    const res = await t.request('/api/auth/SIGN-IN/EMAIL', { method: 'POST', json: { email: 'a@example.com', password: 'x' } });
    expect([404, 429]).toContain(res.status);
  });
});

describe('on https', () => {
  it('marks the session cookie Secure with the __Secure- prefix', async () => {
    const t = await createTestApp('sqlite', { PUBLIC_URL: 'https://blog.example.org' });
    try {
      const res = await t.request('/api/auth/sign-up/email', {
        method: 'POST',
        json: { email: 'secure@example.com', name: 'S', password: 'Sunset123' },
        headers: { origin: 'https://blog.example.org' },
      });
      expect(res.status).toBe(200);
      const cookie = res.headers.getSetCookie().find((c) => c.includes('session_token='))!;
      expect(cookie).toMatch(/^__Secure-afterglow\.session_token=/);
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await t.close();
    }
  });
});
