import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';

describeOnDialects('POST /api/subscribers on %s', (t) => {
  const subscribe = (json: unknown, headers?: Record<string, string>) => t.request('/api/subscribers', { method: 'POST', json, headers });

  it('subscribes anyone once, comparing emails case-insensitively', async () => {
    const first = await subscribe({ email: '  Dawn.Reader@Example.com ' });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ message: MESSAGES.subscribeSuccessMessage });
    for (const email of ['dawn.reader@example.com', 'DAWN.READER@EXAMPLE.COM']) {
      const again = await subscribe({ email });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ message: MESSAGES.alreadySubscribedMessage, code: 'conflict' });
    }
    const stored = await t.deps.database.db.selectFrom('subscribers').select('email').where('email', 'like', '%dawn.reader%').execute();
    expect(stored).toEqual([{ email: 'dawn.reader@example.com' }]);
  });

  it('takes a signed-in caller like anyone else, by cookie or bearer', async () => {
    const user = await t.createUser();
    expect((await subscribe({ email: user.user.email }, { cookie: user.cookie })).status).toBe(201);
    expect((await subscribe({ email: user.user.email }, { authorization: `Bearer ${user.token}` })).status).toBe(409);
  });

  it('refuses a missing, empty or malformed email with a 400 naming the field', async () => {
    for (const [body, message] of [
      [{}, MESSAGES.subscribeEmptyText],
      [{ email: '' }, MESSAGES.subscribeEmptyText],
      [{ email: '   ' }, MESSAGES.subscribeEmptyText],
      [{ email: 'not-an-email' }, MESSAGES.emailHint],
      [{ email: 42 }, MESSAGES.subscribeEmptyText],
      [{ email: `${'a'.repeat(250)}@example.com` }, MESSAGES.emailHint],
    ] as const) {
      const res = await subscribe(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toEqual({ message: `email: ${message}`, code: 'bad_request', field: 'email' });
    }
    const wrongType = await t.request('/api/subscribers', { method: 'POST', body: 'email=a@b.c', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(415);
    const count = await t.deps.database.db.selectFrom('subscribers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });
});

describeOnDialects('POST /api/subscribers rate limit on %s', { RATE_LIMITS: 'on' }, (t) => {
  it('refuses a flood from one address with 429 and Retry-After', async () => {
    const post = (i: number) => t.request('/api/subscribers', { method: 'POST', json: { email: `flood${i}@example.com` } });
    for (let i = 0; i < RATE_LIMITS.subscribe.limit; i += 1) expect((await post(i)).status).toBe(201);
    const refused = await post(999);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', message: MESSAGES.tooManyRequests });
  });
});
