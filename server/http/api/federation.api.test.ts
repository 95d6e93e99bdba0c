import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import type { TestUser } from '#test/test-app';
import { REMOTE_FOLLOWING_TEXTS } from '~/lib/texts/remote-following';

// Following accounts elsewhere (docs/decisions/081) on a site that does not federate (no
// PUBLIC_URL): the calls exist, refuse clearly, and change nothing. The federating paths are
// app/features/federation/remote-following.test.ts, between two sites over real HTTP.
describeOnDialects('following accounts elsewhere through the API on %s', (t) => {
  let reader: TestUser;
  beforeAll(async () => {
    reader = await t.createUser({ name: 'Rhea' });
  });
  const as = (u: TestUser) => ({ cookie: u.cookie, origin: 'http://afterglow.test' });
  const remoteFollows = async () => (await t.deps.database.db.selectFrom('remote_follows').select('id').execute()).length;

  it('asks for a sign-in, refuses bad input with the field’s message, and says federation is off', async () => {
    expect((await t.request('/api/following/remote', { method: 'POST', json: { account: '@a@b.example' } })).status).toBe(401);
    const bad = await t.request('/api/following/remote', { method: 'POST', headers: as(reader), json: { account: 'not a handle' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain(REMOTE_FOLLOWING_TEXTS.accountTooShort);
    const off = await t.request('/api/following/remote', { method: 'POST', headers: as(reader), json: { account: '@a@b.example' } });
    expect(off.status).toBe(400);
    expect(await off.json()).toEqual({ code: 'bad_request', message: REMOTE_FOLLOWING_TEXTS.off });
    const reply = await t.request('/api/following/replies', { method: 'POST', headers: as(reader), json: { postId: 'x', text: 'Hi' } });
    expect(reply.status).toBe(400);
    expect(await remoteFollows()).toBe(0);
  });

  it('lists nothing and finds no follow to end', async () => {
    const list = await t.request('/api/following/remote', { headers: as(reader) });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([]);
    const gone = await t.request('/api/following/remote/nope', { method: 'DELETE', headers: as(reader) });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ code: 'not_found', message: REMOTE_FOLLOWING_TEXTS.followNotFound });
  });
});
