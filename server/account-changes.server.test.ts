import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { mailOrigin } from '~/features/mail/mail-templates.server';
import type { TestApp } from '../tests/support/test-app';

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.includes('session_token='))?.split(';')[0];

/** The mails the SMTP outbox holds for `to`, decoded from quoted-printable. */
function mailsTo(t: TestApp, to: string): string[] {
  const outbox = path.join(t.scratch.dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox);
  } catch {
    return [];
  }
  return files
    .map((file) => readFileSync(path.join(outbox, file), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '='))
    .filter((eml) => eml.includes(`To: ${to}`));
}

const signIn = (t: TestApp, email: string, password: string) => t.request('/api/auth/sign-in/email', { method: 'POST', json: { email, password } });

describeOnDialects('changing the password and the email on %s', (t) => {
  it('changes the password only with the current one, ends the other sessions and mails the owner', async () => {
    const created = await t.createUser();
    const otherDevice = sessionCookie(await signIn(t, created.user.email, created.password))!;
    const wrong = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: 'Wrong1234', newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(wrong.status).toBe(400);
    expect((await signIn(t, created.user.email, created.password)).status).toBe(200);
    const weak = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'weakpass', revokeOtherSessions: true } });
    expect(weak.status).toBe(400);

    const changed = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(changed.status).toBe(200);
    const kept = sessionCookie(changed)!;
    expect((await t.request(`/api/update/${created.user.email}`, { headers: { cookie: otherDevice } })).status).toBe(401);
    expect((await t.request(`/api/update/${created.user.email}`, { headers: { cookie: kept } })).status).toBe(200);
    expect((await signIn(t, created.user.email, created.password)).status).toBe(401);
    expect((await signIn(t, created.user.email, 'Evening456')).status).toBe(200);
    await expect.poll(() => mailsTo(t, created.user.email).filter((eml) => eml.includes('password was changed')).length, { timeout: 30_000 }).toBe(1);
    expect(mailsTo(t, created.user.email)[0]).toContain(`${mailOrigin(t.deps.config)}/forgot-password`);
  });

  it('changes the email once the new address opens its link, and tells the old address first', async () => {
    const created = await t.createUser();
    const newEmail = `moved-${Date.now()}@example.com`;
    const ask = (json: unknown) => t.request('/api/auth/change-email', { method: 'POST', headers: { cookie: created.cookie }, json });
    expect((await ask({ newEmail })).status).toBe(400);
    expect((await ask({ newEmail, password: 'Wrong1234' })).status).toBe(400);
    expect((await ask({ newEmail, password: created.password, callbackURL: '/account?email=changed' })).status).toBe(200);

    await expect.poll(() => mailsTo(t, newEmail).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => mailsTo(t, created.user.email).length, { timeout: 30_000 }).toBe(1);
    expect(mailsTo(t, created.user.email)[0]).toContain(`change its email to ${newEmail}`);
    const origin = mailOrigin(t.deps.config);
    const link = mailsTo(t, newEmail)[0]!.match(/http:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
    expect(new URL(link).origin).toBe(origin);
    // Nothing changes before the link is opened.
    expect((await signIn(t, created.user.email, created.password)).status).toBe(200);

    const follow = await t.request(link.replace(origin, ''), { redirect: 'manual' });
    expect(follow.status).toBe(302);
    expect(follow.headers.get('location')).toBe('/account?email=changed');
    expect((await signIn(t, created.user.email, created.password)).status).toBe(401);
    expect((await signIn(t, newEmail, created.password)).status).toBe(200);
    const profile = await t.deps.database.db.selectFrom('profiles').select('email').where('user_id', '=', created.user.id).executeTakeFirstOrThrow();
    expect(profile.email).toBe(newEmail);
  });

  it('lets a new password stop an email change asked before it', async () => {
    const created = await t.createUser();
    const stranger = `stranger-${Date.now()}@example.com`;
    const asked = await t.request('/api/auth/change-email', { method: 'POST', headers: { cookie: created.cookie }, json: { newEmail: stranger, password: created.password } });
    expect(asked.status).toBe(200);
    await expect.poll(() => mailsTo(t, stranger).length, { timeout: 30_000 }).toBe(1);
    // A whole second later: the link's time is in seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const changed = await t.request('/api/auth/change-password', { method: 'POST', headers: { cookie: created.cookie }, json: { currentPassword: created.password, newPassword: 'Evening456', revokeOtherSessions: true } });
    expect(changed.status).toBe(200);
    const origin = mailOrigin(t.deps.config);
    const link = mailsTo(t, stranger)[0]!.match(/http:\/\/\S+\/api\/auth\/verify-email\?\S+/)![0];
    const follow = await t.request(link.replace(origin, ''), { redirect: 'manual' });
    expect(follow.headers.get('location')).toBe('/account?email=stale');
    expect((await signIn(t, created.user.email, 'Evening456')).status).toBe(200);
    expect((await signIn(t, stranger, 'Evening456')).status).toBe(401);
  });
});
