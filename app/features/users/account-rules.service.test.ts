import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { newId } from '~/lib/core/ids.server';
import { checkAccountRequest, emailChangeLinkStale, emailChangeMails, resetLinkStored, revokeResetLinks } from './account-rules.service.server';

describeOnDialects('account rules on %s', (t) => {
  /** A row as better-auth stores a mailed link's token. */
  const storeLink = async (identifier: string, userId: string) => {
    const id = newId();
    const at = new Date().toISOString();
    await t.deps.database.authDb.insertInto('verification').values({ id, identifier, value: userId, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), createdAt: at, updatedAt: at }).execute();
    return { id, identifier, value: userId };
  };
  const linksOf = async (userId: string) =>
    (await t.deps.database.db.selectFrom('verification').select(['id', 'identifier']).where('value', '=', userId).orderBy('identifier').execute()).map((r) => r.identifier);

  it('only the newest reset link of a user works; a completed reset ends them all', async () => {
    const { user } = await t.createUser();
    const other = await t.createUser();
    const ctx = t.context(null);
    await resetLinkStored(ctx, await storeLink('reset-password:first', user.id));
    await resetLinkStored(ctx, await storeLink('reset-password:theirs', other.user.id));
    await resetLinkStored(ctx, await storeLink('email-change:kept', user.id));
    await resetLinkStored(ctx, await storeLink('reset-password:second', user.id));
    expect(await linksOf(user.id)).toEqual(['email-change:kept', 'reset-password:second']);
    expect(await linksOf(other.user.id)).toEqual(['reset-password:theirs']);
    await revokeResetLinks(ctx, user.id);
    expect(await linksOf(user.id)).toEqual(['email-change:kept']);
  });

  it('an email-change link asked before the password last changed is stale', async () => {
    const { user } = await t.createUser();
    const token = (issuedAt: Date) => `h.${Buffer.from(JSON.stringify({ iat: Math.floor(issuedAt.getTime() / 1000), userId: user.id })).toString('base64url')}.s`;
    const ctx = t.context(null);
    expect(await emailChangeLinkStale(ctx, token(new Date(Date.now() - 3_600_000)))).toBe(true);
    expect(await emailChangeLinkStale(ctx, token(new Date(Date.now() + 60_000)))).toBe(false);
    expect(await emailChangeLinkStale(ctx, 'not-a-token')).toBe(false);
    expect(await emailChangeLinkStale(ctx, undefined)).toBe(false);
  });

  it('deleting an account takes its password; a chosen password meets the rule; each refusal keeps better-auth’s code', async () => {
    const ctx = t.context(null);
    const ask = (path: string, body: unknown) => checkAccountRequest(ctx, { path, body, account: null, knownDevice: false });
    await expect(ask('/delete-user', {})).rejects.toMatchObject({ status: 400, authCode: 'PASSWORD_REQUIRED' });
    await expect(ask('/delete-user', { password: 'anything' })).resolves.toBeUndefined();
    await expect(ask('/change-password', { newPassword: 'weak' })).rejects.toMatchObject({ status: 400, authCode: 'PASSWORD_RULE', field: 'newPassword' });
    await expect(ask('/change-password', { newPassword: 'Sunset123' })).resolves.toBeUndefined();
  });

  it('an email change mails both addresses; the same address mails nothing', async () => {
    const { user } = await t.createUser({ name: 'Mover' });
    const change = { userId: user.id, siteName: 'Afterglow', confirmUrl: 'https://x.test/confirm', forgotUrl: 'https://x.test/forgot' };
    const mails = await emailChangeMails(t.context(null), { ...change, newEmail: 'moved@example.com' });
    expect(mails.map((m) => m.to)).toEqual(['moved@example.com', user.email]);
    expect(mails[0]!.text).toContain('https://x.test/confirm');
    expect(await emailChangeMails(t.context(null), { ...change, newEmail: user.email.toUpperCase() })).toEqual([]);
  });
});
