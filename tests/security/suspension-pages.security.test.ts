// Issue 19: a suspended user can read but not change their account, through every door. The
// API's doors are in suspension.security.test.ts; this is the profile page's own form for
// two-factor, which reaches better-auth through the auth port rather than /api/auth.
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

  it("refuses a suspended user's two-factor change made with the profile form", async () => {
    const tag = randomUUID().slice(0, 8);
    const admin = await apiSession(server.url, { email: `admin-${tag}@example.com`, name: 'Ada Admin' });
    const email = `spam-${tag}@example.com`;
    const spammer = await apiSession(server.url, { email, name: 'Spammer' });
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', `admin-${tag}@example.com`], {
      env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: scratch?.env.DATABASE_URL ?? '', LOG_LEVEL: 'warn' },
    });
    const { id } = (await session(spammer.cookie)).user;
    const suspend = await fetch(`${server.url}/api/moderation/users/${id}/suspend`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'Spam run' }),
    });
    expect(suspend.status).toBe(200);

    // Signed in again (they may read), the form post is refused and changes nothing.
    const fresh = await apiSession(server.url, { email }, 'sign-in');
    const res = await fetch(`${server.url}/profile`, {
      method: 'POST',
      headers: { cookie: fresh.cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'enable', password: 'Sunset123' }).toString(),
    });
    expect(res.status).toBe(403);
    expect((await session(fresh.cookie)).user.twoFactorEnabled ?? false).toBe(false);
  });
});
