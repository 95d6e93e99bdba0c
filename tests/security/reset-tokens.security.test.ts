import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { TEST_ORIGIN } from '#test/test-app';
import { mailText } from '../support/smtp-server';

const REQUESTED = 7;

describeOnDialects('password-reset links on %s', (t, dialect) => {
  /** The mails really written (SMTP_URL unset: DATA_DIR/outbox). */
  const outbox = () => {
    try {
      return readdirSync(path.join(t.scratch.dataDir, 'outbox')).filter((f) => f.endsWith('.eml'));
    } catch {
      return [];
    }
  };

  /** Asks for a reset link and returns the token of the mail that arrives. */
  async function requestLink(email: string): Promise<string> {
    const before = new Set(outbox());
    const res = await t.request('/api/auth/request-password-reset', { method: 'POST', json: { email, redirectTo: '/reset-password' } });
    expect(res.status).toBe(200);
    await expect.poll(() => outbox().filter((f) => !before.has(f)).length).toBe(1);
    const file = outbox().find((f) => !before.has(f))!;
    const link = mailText(readFileSync(path.join(t.scratch.dataDir, 'outbox', file), 'utf8')).match(/\/api\/auth\/reset-password\/([A-Za-z0-9_-]+)/);
    return link![1]!;
  }

  /** Whether the mailed link still leads to the form with its token (not `?error=INVALID_TOKEN`). */
  async function works(token: string): Promise<boolean> {
    const res = await t.request(`/api/auth/reset-password/${token}?callbackURL=%2Freset-password`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!, TEST_ORIGIN).searchParams.get('token') === token;
  }

  const resetWith = (token: string, newPassword: string) => t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword } });

  it('keeps only the newest link of a user, and no one else loses theirs', async () => {
    const { user } = await t.createUser();
    const neighbour = await t.createUser();
    const theirs = await requestLink(neighbour.user.email);
    const tokens: string[] = [];
    for (let i = 0; i < REQUESTED; i++) tokens.push(await requestLink(user.email));
    const valid = [];
    for (const token of tokens) valid.push(await works(token));
    expect(valid).toEqual([...Array<boolean>(REQUESTED - 1).fill(false), true]);
    expect(await works(theirs)).toBe(true);
    // The older links cannot set a password either, not only not lead to the form.
    expect((await resetWith(tokens[0]!, 'Evening456')).status).toBe(400);
    console.log(`reset tokens (${dialect}): ${valid.filter(Boolean).length} valid of ${REQUESTED} requested; another user's link unaffected`);
  });

  it('ends every other link once a reset is done, even one issued before this rule (the audit probe)', async () => {
    const { user } = await t.createUser();
    // The audit's probe: two links, the second used; the first must be dead.
    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    // A link still stored from before this rule, written as better-auth writes one (no hooks).
    const { adapter } = await t.deps.auth.$context;
    const stale = randomBytes(18).toString('base64url');
    await adapter.create({
      model: 'verification',
      data: { identifier: `reset-password:${stale}`, value: user.id, expiresAt: new Date(Date.now() + 30 * 60_000), createdAt: new Date(), updatedAt: new Date() },
    });
    expect(await works(stale)).toBe(true);
    expect((await resetWith(second, 'Evening456')).status).toBe(200);
    const stillWorking = [(await works(first)) && first, (await works(stale)) && stale, (await works(second)) && second].filter(Boolean);
    expect(stillWorking).toEqual([]);
    expect((await resetWith(stale, 'Morning789')).status).toBe(400);
    console.log(`reset tokens (${dialect}): after a completed reset ${stillWorking.length} of 3 links work (the used one, an older one, one from before the rule)`);
  });
});
