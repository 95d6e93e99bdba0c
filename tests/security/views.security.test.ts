import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { readCurrentVersions } from '~/db/content-version.server';
import { createScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { loadConfig } from '#server/config.server';
import { createDeps } from '#server/context.server';
import { createHttpApp } from '#server/http/http.server';
import { createLogger } from '#server/logger.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { createTestApp, TEST_ORIGIN, type TestUser } from '#test/test-app';
import { apiSession } from '../support/auth';
import { startServer } from '../support/server';
import { PUBLIC_BLOG } from '../support/public-blog';


/**
 * The anonymous view counter used to count every call and each one emptied the page
 * cache. A visitor counts once per blog a day, the endpoint is rate-limited per client, and a
 * view empties no cache (docs/product.md#views, docs/decisions/024).
 */
describeOnDialects('view counting on %s', { RATE_LIMITS: 'on' }, (t, dialect) => {
  let owner: TestUser;
  let blogId = '';
  beforeAll(async () => {
    owner = await t.createUser();
    const res = await t.request('/api/blogs', { method: 'POST', headers: { cookie: owner.cookie }, json: PUBLIC_BLOG });
    blogId = ((await res.json()) as { insertedId: string }).insertedId;
  });

  const view = (address: string, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0') =>
    t.app.fetch(new Request(`${TEST_ORIGIN}/api/blogs/${blogId}/view`, { method: 'PATCH', headers: { origin: TEST_ORIGIN, 'user-agent': userAgent } }), {
      incoming: { socket: { remoteAddress: address } },
    });
  const storedViews = async () => (await t.deps.database.db.selectFrom('blogs').select('views').where('id', '=', blogId).executeTakeFirstOrThrow()).views;

  it('counts one visitor once a day, refuses a flood with 429, and empties no cache', async () => {
    const rule = RATE_LIMITS.view;
    const read = async () => (await t.request(`/api/blogs/${blogId}`)).headers.get('x-cache');
    await read();
    expect(await read()).toBe('HIT');
    const versionsBefore = await readCurrentVersions(t.deps.database, blogId);

    const CALLS = 50;
    let counted = 0;
    for (let i = 0; i < CALLS; i++) {
      const res = await view('198.51.100.20');
      expect(res.status).toBe(200);
      counted += ((await res.json()) as { modifiedCount: number }).modifiedCount;
    }
    await t.deps.views.flush();
    expect(counted).toBe(1);
    expect(await storedViews()).toBe(1);

    let calls = CALLS;
    let refused: Response | null = null;
    while (calls < rule.limit + 5) {
      const res = await view('198.51.100.20');
      if (res.status === 429) {
        refused = res;
        break;
      }
      await res.arrayBuffer();
      calls++;
    }
    expect(calls).toBe(rule.limit);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    // The limit is per client: another address is neither refused nor merged with the first.
    const neighbour = await view('198.51.100.21');
    expect(neighbour.status).toBe(200);
    expect(((await neighbour.json()) as { modifiedCount: number }).modifiedCount).toBe(1);
    await t.deps.views.flush();
    expect(await storedViews()).toBe(2);

    const versionsAfter = await readCurrentVersions(t.deps.database, blogId);
    const flushes = Object.keys(versionsBefore).filter((scope) => versionsBefore[scope as keyof typeof versionsBefore] !== versionsAfter[scope as keyof typeof versionsAfter]).length;
    expect(flushes).toBe(0);
    expect(await read()).toBe('HIT');
    console.log(`views (${dialect}): ${counted} counted / ${CALLS} calls from one visitor in a day; 429 after ${calls}; ${flushes} cache flushes`);
  });

  it('keeps no client address: a visitor is a salted hash that changes every day', async () => {
    const visitor = t.deps.views.anonymousVisitor('198.51.100.20', 'Firefox');
    expect(visitor).not.toContain('198.51.100.20');
    expect(visitor).toBe(t.deps.views.anonymousVisitor('198.51.100.20', 'Firefox'));
    const realNow = t.deps.now;
    t.deps.now = () => new Date(realNow().getTime() + 86_400_000);
    try {
      expect(t.deps.views.anonymousVisitor('198.51.100.20', 'Firefox')).not.toBe(visitor);
    } finally {
      t.deps.now = realNow;
    }
  });
});

describe.each(TEST_DIALECTS)('view counting on two instances sharing Redis on %s', (dialect) => {
  it('counts a visitor once whichever instance they reach', async (context) => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
    probe.on('error', () => {});
    const reachable = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (!reachable) return context.skip('no Redis at TEST_REDIS_URL');
    const env = { REDIS_URL: redisUrl, REDIS_PREFIX: `afterglow:test:${randomUUID()}:` };
    const t = await createTestApp(dialect, env);
    const deps = await createDeps(loadConfig({ ...t.scratch.env, ...env, SESSION_SECRET: t.deps.config.SESSION_SECRET }), createLogger('silent'));
    const second = createHttpApp(deps);
    try {
      const owner = await t.createUser();
      const created = await t.request('/api/blogs', { method: 'POST', headers: { cookie: owner.cookie }, json: PUBLIC_BLOG });
      const blogId = ((await created.json()) as { insertedId: string }).insertedId;
      const view = (app: typeof second) =>
        app.fetch(new Request(`${TEST_ORIGIN}/api/blogs/${blogId}/view`, { method: 'PATCH', headers: { origin: TEST_ORIGIN, 'user-agent': 'Firefox' } }), {
          incoming: { socket: { remoteAddress: '198.51.100.30' } },
        });
      let counted = 0;
      for (const app of [t.app, second, t.app, second]) counted += ((await (await view(app)).json()) as { modifiedCount: number }).modifiedCount;
      await Promise.all([t.deps.views.flush(), deps.views.flush()]);
      const row = await t.deps.database.db.selectFrom('blogs').select('views').where('id', '=', blogId).executeTakeFirstOrThrow();
      expect([counted, row.views]).toEqual([1, 1]);
      console.log(`views (${dialect}): ${counted} counted / 4 calls from one visitor across 2 instances sharing Redis`);
    } finally {
      await deps.views.close();
      await deps.database.close();
      await t.close();
    }
  });
});

describe.each(TEST_DIALECTS)('buffered views at shutdown on %s', (dialect) => {
  it('writes every counted view when the server is stopped with SIGTERM', async () => {
    const scratch = await createScratchDatabase(dialect);
    try {
      const server = await startServer({ ...scratch.env, NODE_ENV: 'production', LOG_LEVEL: 'warn' });
      let blogId = '';
      try {
        const { cookie } = await apiSession(server.url, { email: `owner-${Date.now()}@example.com` });
        const res = await fetch(`${server.url}/api/blogs`, {
          method: 'POST',
          headers: { cookie, origin: server.url, 'content-type': 'application/json' },
          body: JSON.stringify(PUBLIC_BLOG),
        });
        blogId = ((await res.json()) as { insertedId: string }).insertedId;
        for (const agent of ['one', 'two', 'three']) {
          const viewed = await fetch(`${server.url}/api/blogs/${blogId}/view`, { method: 'PATCH', headers: { origin: server.url, 'user-agent': agent } });
          expect(await viewed.json()).toEqual({ modifiedCount: 1 });
        }
        expect(await server.signal('SIGTERM')).toBe(0);
      } finally {
        await server.stop();
      }
      // Read back in this process: what the database holds now is what SIGTERM saved.
      const deps = await createDeps(loadConfig(scratch.env), createLogger('silent'));
      try {
        const row = await deps.database.db.selectFrom('blogs').select('views').where('id', '=', blogId).executeTakeFirstOrThrow();
        expect(row.views).toBe(3);
        console.log(`views (${dialect}): 3 counted before SIGTERM, ${row.views} stored after it`);
      } finally {
        await deps.views.close();
        await deps.database.close();
      }
    } finally {
      await scratch.drop();
    }
  });
});
