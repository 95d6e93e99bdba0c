import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  clientRateLimitKey,
  consumeRateLimit,
  createRateLimitStore,
  emailRateLimitKey,
  MemoryRateLimitStore,
  rateLimit,
  RedisRateLimitStore,
} from './rate-limit.server';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('memory rate-limit store', () => {
  it('counts hits in a fixed window and starts a new one when it ends', async () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.hit('k', 100)).toEqual({ count: 1, resetAt: 1_100 });
    expect((await store.hit('k', 100)).count).toBe(2);
    expect((await store.hit('other', 100)).count).toBe(1);
    now = 1_100;
    expect(await store.hit('k', 100)).toEqual({ count: 1, resetAt: 1_200 });
  });

  it('is off with RATE_LIMITS=off and lets everything through', async () => {
    const store = createRateLimitStore({ RATE_LIMITS: 'off' });
    expect(store).toBeNull();
    expect((await consumeRateLimit(store, { name: 'x', limit: 0, windowMs: 1000 }, '1.2.3.4')).allowed).toBe(true);
  });
});

describe('the rateLimit middleware', () => {
  const app = (store: ReturnType<typeof createRateLimitStore>) => {
    const hono = new Hono<{ Variables: { clientIp: string } }>();
    hono.use(async (c, next) => {
      c.set('clientIp', c.req.header('x-test-ip') ?? '203.0.113.1');
      await next();
    });
    hono.post('/comment', rateLimit({ store, name: 'comment', limit: 2, windowMs: 60_000 }), (c) => c.json({ ok: true }));
    return hono;
  };

  it('answers 429 with Retry-After past the limit, per client address', async () => {
    const hono = app(new MemoryRateLimitStore());
    const post = (ip?: string) => hono.request('/comment', { method: 'POST', headers: ip ? { 'x-test-ip': ip } : {} });
    expect((await post()).headers.get('RateLimit-Remaining')).toBe('1');
    expect((await post()).status).toBe(200);
    const blocked = await post();
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('Retry-After'))).toBeGreaterThan(55);
    expect((await post('203.0.113.2')).status).toBe(200);
  });

  it('lets requests through when the store fails', async () => {
    const broken = { hit: async () => { throw new Error('down'); }, peek: async () => { throw new Error('down'); }, close: async () => {} };
    const hono = app(broken);
    for (let i = 0; i < 4; i++) expect((await hono.request('/comment', { method: 'POST' })).status).toBe(200);
  });
});

describe('Redis rate-limit store (shared by several instances)', () => {
  const prefix = `afterglow-test:${randomUUID()}:`;
  const admin = new Redis(REDIS_URL, { lazyConnect: true });
  const stores: RedisRateLimitStore[] = [];
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await Promise.all(stores.map((s) => s.close()));
    admin.disconnect();
  });

  it('shares one counter between two instances and expires it with the window', async () => {
    const a = new RedisRateLimitStore(REDIS_URL, prefix);
    const b = new RedisRateLimitStore(REDIS_URL, prefix);
    stores.push(a, b);
    const rule = { name: 'sign-in', limit: 3, windowMs: 300 };
    const results = [];
    for (const store of [a, b, a, b]) results.push(await consumeRateLimit(store, rule, '198.51.100.9'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(await admin.get(`${prefix}sign-in:198.51.100.9`)).toBe('4');
    const ttl = await admin.pttl(`${prefix}sign-in:198.51.100.9`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    expect((await consumeRateLimit(b, rule, '198.51.100.10')).allowed).toBe(true);
    await new Promise((r) => setTimeout(r, 350));
    expect((await consumeRateLimit(a, rule, '198.51.100.9')).remaining).toBe(2);
  });

  it('is what REDIS_URL selects', async () => {
    const store = createRateLimitStore({ RATE_LIMITS: 'on', REDIS_URL });
    expect(store).toBeInstanceOf(RedisRateLimitStore);
    await store!.close();
  });

  it('fails open, quickly, when Redis cannot be reached', async () => {
    const store = new RedisRateLimitStore('redis://127.0.0.1:1', prefix);
    stores.push(store);
    const started = Date.now();
    const result = await consumeRateLimit(store, { name: 'x', limit: 1, windowMs: 1000 }, '1.2.3.4');
    expect(result.allowed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('rate-limit keys', () => {
  it('puts an IPv6 client in its /64, however the address is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2:0:0:0:9', '2001:db8:1:2::1.2.3.4', 'fe80::1%eth0'.replace('fe80::1', '2001:db8:1:2::5')]) {
      expect(clientRateLimitKey(ip), ip).toBe(key);
    }
    expect(clientRateLimitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientRateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(clientRateLimitKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientRateLimitKey('198.51.100.7')).toBe('198.51.100.7');
  });

  it('counts an account once whatever its spelling, without keeping the address', () => {
    expect(emailRateLimitKey('  Ada@Example.COM ')).toBe(emailRateLimitKey('ada@example.com'));
    expect(emailRateLimitKey('ada@example.com')).not.toContain('ada');
  });
});
