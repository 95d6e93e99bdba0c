// docs/decisions/028 and 048: a suspended user can read but not change their account, through every door. The
// API's doors are in suspension.security.test.ts; these are the page forms: the profile page's
// two-factor form (better-auth through the auth port rather than /api/auth), the follow and
// unfollow forms and the profile form (docs/decisions/048).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '#test/auth';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { type RunningServer, startServer } from '#test/server';

describe.each(TEST_DIALECTS)('suspension at the profile page on %s', (dialect) => {
  let server: RunningServer;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = dialect === 'postgres' ? await createScratchDatabase('postgres') : undefined;
    server = await startServer(scratch ? { DATABASE_URL: scratch.env.DATABASE_URL! } : {});
  });
  afterAll(async () => {
    await server?.stop();
    await scratch?.drop();
  });

  const session = async (cookie: string) =>
    (await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })).json()) as { user: { id: string; twoFactorEnabled?: boolean | null } };


  /** A new admin (named by the operator's command) suspends the account of `cookie`; answers its sign-in again. */
  const suspendAndSignIn = async (cookie: string, email: string) => {
    const adminEmail = `admin-${randomUUID().slice(0, 8)}@example.com`;
    const admin = await apiSession(server.url, { email: adminEmail, name: 'Ada Admin' });
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', adminEmail], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: scratch?.env.DATABASE_URL ?? '', LOG_LEVEL: 'warn' },
    });
    const { id } = (await session(cookie)).user;
    const suspend = await fetch(`${server.url}/api/moderation/users/${id}/suspend`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Spam run' }),
    });
    expect(suspend.status).toBe(200);
    // Signed in again: they may read.
    return apiSession(server.url, { email }, 'sign-in');
  };

  it("refuses a suspended user's two-factor change made with the profile form", async () => {
    const tag = randomUUID().slice(0, 8);
    const email = `spam-${tag}@example.com`;
    const spammer = await apiSession(server.url, { email, name: 'Spammer' });
    // Signed in again (they may read), the form post is refused and changes nothing.
    const fresh = await suspendAndSignIn(spammer.cookie, email);
    const res = await fetch(`${server.url}/profile`, {
      method: 'POST',
      headers: { cookie: fresh.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'enable', password: 'Sunset123' }).toString(),
    });
    expect(res.status).toBe(403);
    expect((await session(fresh.cookie)).user.twoFactorEnabled ?? false).toBe(false);
  });

  it('refuses a suspended user the follow and unfollow forms, and the profile form', async () => {
    const tag = randomUUID().slice(0, 8);
    const writers = [await apiSession(server.url, { email: `w1-${tag}@example.com`, name: 'First Writer' }), await apiSession(server.url, { email: `w2-${tag}@example.com`, name: 'Second Writer' })];
    const [first, second] = await Promise.all(writers.map(async (w) => (await session(w.cookie)).user.id));
    const email = `follower-${tag}@example.com`;
    const follower = await apiSession(server.url, { email, name: 'Fay Follower' });
    const post = (cookie: string, path: string, fields: Record<string, string>) =>
      fetch(`${server.url}${path}`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const following = async (cookie: string) => [...new Set((await (await fetch(`${server.url}/following`, { headers: { cookie } })).text()).match(/(First|Second) Writer/g))];
    expect((await post(follower.cookie, '/follow', { intent: 'follow', writerId: first!, redirectTo: '/following' })).status).toBe(302);
    expect(await following(follower.cookie)).toContain('First Writer');

    const fresh = await suspendAndSignIn(follower.cookie, email);
    await (await post(fresh.cookie, '/follow', { intent: 'follow', writerId: second!, redirectTo: '/following' })).arrayBuffer();
    await (await post(fresh.cookie, '/following', { writerId: first! })).arrayBuffer();
    await (await post(fresh.cookie, '/follow', { intent: 'unfollow', writerId: first!, redirectTo: '/following' })).arrayBuffer();
    expect(await following(fresh.cookie)).toEqual(['First Writer']);
    const profile = await post(fresh.cookie, '/update-profile', { name: 'Renamed Spammer' });
    await profile.arrayBuffer();
    expect((await session(fresh.cookie)).user).not.toMatchObject({ name: 'Renamed Spammer' });
    expect(await (await fetch(`${server.url}/api/update/${encodeURIComponent(email)}`, { headers: { cookie: fresh.cookie } })).json()).toMatchObject({ name: 'Fay Follower' });
  });
});
