import type { AppLoadContext } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action } from '~/routes/following';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { readFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { serviceContext } from '#server/context.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import { type FediPeer, startFediPeer } from '#test/fedi-peer';
import type { TestUser } from '#test/test-app';

/** Following accounts elsewhere has its own rate rule, counted in the use case the form and the API share (docs/decisions/089). */
describe.each(TEST_DIALECTS)('the remote-follow rate limit (%s)', (dialect) => {
  let site: ServedTestApp;
  let peer: FediPeer;
  let reader: TestUser;
  const db = () => site.t.deps.database.db;
  // What a follow would leave behind: an actor row, a follow row, a queued delivery.
  const traces = async () => ({
    actors: (await db().selectFrom('remote_actors').select('id').execute()).length,
    follows: (await db().selectFrom('remote_follows').select('id').execute()).length,
    jobs: (await db().selectFrom('jobs').select('id').where('kind', '=', 'federation:message').execute()).length,
  });
  // Accounts on the site itself are refused, but every try counts, so they fill the counter quickly.
  const ownAccount = () => `@someone@${new URL(site.origin).host}`;

  beforeAll(async () => {
    site = await serveTestApp(dialect, { RATE_LIMITS: 'on' });
    peer = await startFediPeer();
    reader = await site.t.createUser({ name: 'Rhea Reader' });
  });
  afterAll(async () => {
    await peer?.close();
    await site?.close();
  });

  it('the API answers 429 past the limit, and nothing is asked, kept or sent', async () => {
    const follow = (account: string) => site.t.request('/api/following/remote', { method: 'POST', headers: { cookie: reader.cookie }, json: { account } });
    for (let i = 0; i < RATE_LIMITS.remoteFollow.limit; i++) expect((await follow(ownAccount())).status).toBe(400);
    const before = await traces();
    const refused = await follow(peer.actorUri('someone').href);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(MESSAGES.tooManyRequests);
    expect(await traces()).toEqual(before);
    expect(before).toEqual({ actors: 0, follows: 0, jobs: 0 });
  });

  it('the /following form says so, from the same counter, and changes nothing', async () => {
    const clientIp = '198.51.100.30';
    const post = async (account: string) => {
      const request = new Request(`${site.origin}/following`, { method: 'POST', body: new URLSearchParams({ intent: 'follow-remote', account }), headers: { origin: site.origin } });
      const service = serviceContext(site.t.deps, reader.user, { clientIp, request });
      const context = { deps: site.t.deps, service, user: reader.user, nonce: '', requestId: 'test', clientIp } as unknown as AppLoadContext;
      const response = (await action({ request, context, params: {} } as never)) as Response;
      const cookie = response.headers.getSetCookie().find((c) => c.startsWith('afterglow.flash='))!;
      return readFlash(new Request(site.origin, { headers: { cookie: cookie.split(';')[0]! } }));
    };
    for (let i = 0; i < RATE_LIMITS.remoteFollow.limit; i++) expect(await post(ownAccount())).toMatchObject({ type: 'toast', kind: 'error' });
    const before = await traces();
    expect(await post(peer.actorUri('someone').href)).toEqual({ type: 'toast', kind: 'error', text: MESSAGES.tooManyRequests });
    expect(await traces()).toEqual(before);
  });
});
