import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS, type RateLimitRule } from '~/lib/core/rate-limits';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';
import { TEXT_FILE } from '../support/images';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WRONG = { email: 'nobody@example.com', password: 'Wrong1234' };
/** HTML-escaped as React renders it, so the page form's message can be found in the document. */
const html = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#x27;').replace(/"/g, '&quot;');

interface Call {
  path: string;
  method?: string;
  json?: unknown;
  form?: Record<string, string>;
  body?: FormData;
  headers?: Record<string, string>;
}

const call = (server: RunningServer, { path, method = 'POST', json, form, body, headers = {} }: Call) =>
  fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      origin: server.url,
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    },
    body: json !== undefined ? JSON.stringify(json) : form ? new URLSearchParams(form) : body,
  });

/** A refused API call: 429, a JSON message and a Retry-After within the rule's window. */
async function expectApiLimited(res: Response, rule: RateLimitRule) {
  expect(res.status).toBe(429);
  expect(((await res.json()) as { message: string }).message).toBe(MESSAGES.tooManyRequests);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(rule.windowMs / 1000);
}

/** Calls `limit` times (none refused), then once more: that one must be refused. */
async function exhaust(rule: RateLimitRule, send: (i: number) => Promise<Response>): Promise<Response> {
  for (let i = 0; i < rule.limit; i++) {
    const res = await send(i);
    expect(res.status, `${rule.name} call ${i + 1} of ${rule.limit}`).not.toBe(429);
    await res.arrayBuffer();
  }
  return send(rule.limit);
}

describe('rate limits, straight to the server (no trusted proxy)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'on' });
  });
  afterAll(async () => server?.stop());

  it('refuses sign-in after the documented count, API and page form alike, whatever X-Forwarded-For says', async () => {
    const rule = RATE_LIMITS.signIn;
    // The API and the page form share one counter: alternate them, each with a new forwarded address.
    const blocked = await exhaust(rule, (i) =>
      i % 2 === 1 && i < rule.limit
        ? call(server, { path: '/login', form: WRONG, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } })
        : call(server, { path: '/api/auth/sign-in/email', json: WRONG, headers: { 'x-forwarded-for': `198.51.100.${i + 1}` } }),
    );
    await expectApiLimited(blocked, rule);
    let resets = 0;
    for (let i = 0; i < 5; i++) {
      const res = await call(server, { path: '/api/auth/sign-in/email', json: WRONG, headers: { 'x-forwarded-for': `203.0.113.${i + 10}, 192.0.2.${i}` } });
      if (res.status !== 429) resets++;
    }
    expect(resets).toBe(0);
    const page = await call(server, { path: '/login', form: WRONG, headers: { 'x-forwarded-for': '203.0.113.99' } });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain(html(MESSAGES.tooManyRequests));
    console.log(
      `rate-limits: sign-in 429 after ${rule.limit} per ${rule.windowMs / 60_000} min (API and page form share the count); X-Forwarded-For without TRUST_PROXY: ${resets} resets / 5 rotations`,
    );
  });
});

describe('rate limits behind a trusted proxy (TRUST_PROXY=127.0.0.1)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMITS: 'on', TRUST_PROXY: '127.0.0.1' });
  });
  afterAll(async () => server?.stop());
  let client = 0;
  /** Each check counts for its own forwarded client, as a proxy would report it. */
  const nextClient = () => ({ 'x-forwarded-for': `198.51.100.${++client}` });

  it('counts per forwarded client, and a client cannot reset its count by adding hops', async () => {
    const rule = RATE_LIMITS.signIn;
    const me = nextClient();
    await expectApiLimited(await exhaust(rule, () => call(server, { path: '/api/auth/sign-in/email', json: WRONG, headers: me })), rule);
    // A client prepending made-up hops: the proxy appends the real one, which is what counts.
    const spoofed = await call(server, { path: '/api/auth/sign-in/email', json: WRONG, headers: { 'x-forwarded-for': `10.9.8.7, ${me['x-forwarded-for']}` } });
    expect(spoofed.status).toBe(429);
    // Another account too: this one has met its per-account limit (EMAIL_RATE_LIMITS) as well.
    const neighbour = await call(server, { path: '/api/auth/sign-in/email', json: { ...WRONG, email: 'somebody@example.com' }, headers: nextClient() });
    expect(neighbour.status).toBe(401);
    console.log('rate-limits: TRUST_PROXY honoured: the forwarded client is counted; extra left-hand hops reset nothing; another client is unaffected');
  });

  /** The known-device cookie a sign-in set, as a Cookie header ('' when none). */
  const knownDevice = (res: Response) =>
    res.headers
      .getSetCookie()
      .filter((c) => c.includes('known_devices='))
      .map((c) => c.split(';')[0])
      .join('; ');
  /** The message of a refused page form, as the page shows it. */
  const pageRefusal = async (res: Response, text: string) => {
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(html(text));
  };

  it('counts wrong passwords per account across addresses, API and form sharing the count, and never locks out a device that signed in before', async () => {
    const rule = RATE_LIMITS.signInEmail;
    const victim = `victim-${randomUUID()}@example.com`;
    await apiSession(server.url, { email: victim });
    // The owner signed in on their own browser once: it is remembered for this account.
    const ownerSignIn = await call(server, { path: '/api/auth/sign-in/email', json: { email: victim, password: 'Sunset123' }, headers: nextClient() });
    expect(ownerSignIn.status).toBe(200);
    const ownerDevice = knownDevice(ownerSignIn);
    expect(ownerDevice).not.toBe('');
    // A right password from a device new to the account counts no failure.
    expect((await call(server, { path: '/api/auth/sign-in/email', json: { email: victim, password: 'Sunset123' }, headers: nextClient() })).status).toBe(200);
    // Strangers guess from rotating addresses, spelling the email differently at each door.
    const guess = (i: number) => ({ email: i % 2 ? `  ${victim.toUpperCase()} ` : victim.toUpperCase(), password: `Guess${i}abc` });
    for (let i = 0; i < rule.limit; i++) {
      const res = i % 2 === 1 ? await call(server, { path: '/login', form: guess(i), headers: nextClient() }) : await call(server, { path: '/api/auth/sign-in/email', json: guess(i), headers: nextClient() });
      expect(res.status, `wrong password ${i + 1}`).toBe(401);
    }
    // From a device new to the account, even the right password now waits, and is told why.
    const refused = await call(server, { path: '/api/auth/sign-in/email', json: { email: victim, password: 'Sunset123' }, headers: nextClient() });
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { message: string; code: string };
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(rule.windowMs / 1000);
    expect(body).toEqual({ code: 'account_resting', message: MESSAGES.signInResting(retryAfter) });
    expect(body.message).not.toContain('network');
    await pageRefusal(await call(server, { path: '/login', form: guess(1), headers: nextClient() }), MESSAGES.signInResting(retryAfter).split(';')[0]!);
    // The owner's browser still signs in, through the API and the page form, from any address.
    expect((await call(server, { path: '/api/auth/sign-in/email', json: { email: victim, password: 'Sunset123' }, headers: { ...nextClient(), cookie: ownerDevice } })).status).toBe(200);
    const form = await call(server, { path: '/login', form: { email: victim, password: 'Sunset123' }, headers: { ...nextClient(), cookie: ownerDevice } });
    expect(form.status).toBe(302);
    expect(form.headers.getSetCookie().some((c) => c.includes('session_token='))).toBe(true);
    // A forged or foreign cookie is not a known device.
    expect((await call(server, { path: '/api/auth/sign-in/email', json: { email: victim, password: 'Sunset123' }, headers: { ...nextClient(), cookie: ownerDevice.replace(/=([^.]+)/, '=x$1') } })).status).toBe(429);
    const neighbour = await call(server, { path: '/api/auth/sign-in/email', json: { email: `other-${randomUUID()}@example.com`, password: 'Guess1234' }, headers: nextClient() });
    expect(neighbour.status).toBe(401);
    console.log(`rate-limits: ${rule.limit} wrong passwords per account an hour from devices new to it (API and form share the count; email trimmed and lowercased), then new devices wait with a true message; the owner's known browser signs in through both doors; another account unaffected`);
  });

  it('counts reset mails per account across addresses, API and form sharing the count, and says the newest mail works', async () => {
    const rule = RATE_LIMITS.resetRequestEmail;
    const victim = `reset-victim-${randomUUID()}@example.com`;
    const blocked = await exhaust(rule, (i) =>
      i % 2 === 1 && i < rule.limit
        ? call(server, { path: '/forgot-password', form: { email: ` ${victim.toUpperCase()}` }, headers: nextClient() })
        : call(server, { path: '/api/auth/request-password-reset', json: { email: victim, redirectTo: '/reset-password' }, headers: nextClient() }),
    );
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect((await blocked.json()) as unknown).toEqual({ code: 'account_resting', message: MESSAGES.resetResting(retryAfter) });
    await pageRefusal(await call(server, { path: '/forgot-password', form: { email: victim }, headers: nextClient() }), MESSAGES.resetResting(retryAfter).split(';')[0]!);
    console.log(`rate-limits: per-email reset mail 429 after ${rule.limit} across ${rule.limit} addresses (API and form share the count), saying the newest mail's link works`);
  });

  it('counts wrong current passwords of a signed-in account on verify-password, change-password, delete-user and two-factor set-up (API and profile form)', async () => {
    const rule = RATE_LIMITS.passwordCheck;
    const email = `holder-${randomUUID()}@example.com`;
    const session = await apiSession(server.url, { email });
    const doors: ((i: number) => Call)[] = [
      (i) => ({ path: '/api/auth/delete-user', json: { password: `Wrong${i}abc` } }),
      (i) => ({ path: '/api/auth/verify-password', json: { password: `Wrong${i}abc` } }),
      (i) => ({ path: '/api/auth/change-password', json: { currentPassword: `Wrong${i}abc`, newPassword: 'Sunset456' } }),
      (i) => ({ path: '/profile', form: { intent: 'enable', password: `Wrong${i}abc` } }),
      (i) => ({ path: '/api/auth/two-factor/enable', json: { password: `Wrong${i}abc` } }),
    ];
    // Each from its own address: the count is the account's.
    const send = (door: (i: number) => Call, i: number) => {
      const c = door(i);
      return call(server, { ...c, headers: { ...c.headers, ...nextClient(), cookie: session.cookie } });
    };
    for (let i = 0; i < rule.limit; i++) {
      const res = await send(doors[i % doors.length]!, i);
      expect(res.status, `wrong password ${i + 1} at ${doors[i % doors.length]!(i).path}`).toBeGreaterThanOrEqual(400);
      expect(res.status).not.toBe(429);
      await res.arrayBuffer();
    }
    // Now even the right one waits, at every door, and is told why.
    for (const door of doors) {
      const c = door(0);
      const right = c.form ? { ...c, form: { ...c.form, password: 'Sunset123' } } : { ...c, json: { ...(c.json as object), password: 'Sunset123', currentPassword: 'Sunset123' } };
      const res = await call(server, { ...right, headers: { ...nextClient(), cookie: session.cookie } });
      expect(res.status, c.path).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      if (c.form) expect(await res.text()).toContain(html(MESSAGES.passwordCheckResting(retryAfter)).split(' in ')[0]);
      else expect(((await res.json()) as { message: string }).message).toBe(MESSAGES.passwordCheckResting(retryAfter));
    }
    // Another account's session is unaffected.
    const other = await apiSession(server.url, { email: `other-holder-${randomUUID()}@example.com` });
    expect((await call(server, { path: '/api/auth/verify-password', json: { password: 'Sunset123' }, headers: { ...nextClient(), cookie: other.cookie } })).status).toBe(200);
    console.log(`rate-limits: ${rule.limit} wrong current passwords per account per ${rule.windowMs / 60_000} min across verify-password, change-password, delete-user, two-factor set-up (API and profile form), then refused with a true message`);
  });

  it('keys IPv6 clients by their /64', async () => {
    const rule = RATE_LIMITS.signIn;
    // One /64, spelled and filled in as many ways as a client could rotate through.
    const sameNetwork = ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:DB8:1:2:a:b:c:d', '2001:db8:1:2:0:0:0:9', '2001:db8:1:2::1.2.3.4'];
    const attempt = (address: string) =>
      call(server, { path: '/api/auth/sign-in/email', json: { email: `v6-${randomUUID()}@example.com`, password: 'Guess1234' }, headers: { 'x-forwarded-for': address } });
    await expectApiLimited(await exhaust(rule, (i) => attempt(sameNetwork[i]!)), rule);
    const nextNetwork = await attempt('2001:db8:1:3::1');
    expect(nextNetwork.status).toBe(401);
    console.log(`rate-limits: IPv6 /64 shares one counter (429 after ${rule.limit} across ${sameNetwork.length} addresses of 2001:db8:1:2::/64; 2001:db8:1:3::/64 unaffected)`);
  });

  it('limits sign-up, password-reset mails, subscribing, comments and uploads, API and forms', async () => {
    const owner = await apiSession(server.url, { email: `owner-${randomUUID()}@example.com` });
    const reader = await apiSession(server.url, { email: `reader-${randomUUID()}@example.com` });
    const created = await call(server, {
      path: '/api/blogs',
      headers: { cookie: owner.cookie },
      json: {
        title: 'Limits',
        category: 'Travelling & Photography',
        type: 'written content',
        short_description: 'A blog to comment on.',
        long_description: 'Comments are limited.',
        availability: 'Public',
        photo: '/uploads/x-1600.webp',
      },
    });
    expect(created.status).toBe(201);
    const blogId = ((await created.json()) as { insertedId: string }).insertedId;

    /** A multipart form carrying a (not even valid) image: the upload rule refuses it before the file is looked at. */
    const withImage = (fields: Record<string, string>, field = 'image') => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.set(name, value);
      body.set(field, new Blob([TEXT_FILE], { type: 'image/jpeg' }), 'not-a-photo.jpg');
      return body;
    };
    const blogFields = { title: 'Over the limit', category: 'Travelling & Photography', type: 'written content', short_description: 'Short.', long_description: 'Long.', availability: 'Public' };
    const checks: [string, RateLimitRule, (i: number, who: Record<string, string>) => Call, Call[]][] = [
      ['sign-up', RATE_LIMITS.signUp, (i) => ({ path: '/api/auth/sign-up/email', json: { email: `su${i}-${randomUUID()}@example.com`, name: 'S', password: 'Sunset123' } }),
        [{ path: '/register', form: { name: 'S', email: 'late@example.com', password: 'Sunset123', terms: 'on' } }]],
      ['password-reset mail', RATE_LIMITS.resetRequest, () => ({ path: '/api/auth/request-password-reset', json: { email: 'a@example.com', redirectTo: '/reset-password' } }),
        [{ path: '/forgot-password', form: { email: 'a@example.com' } }]],
      ['subscribe', RATE_LIMITS.subscribe, (i) => ({ path: '/api/subscribers', json: { email: `sub${i}-${randomUUID()}@example.com` } }),
        [{ path: '/newsletter', form: { email: 'late@example.com' } }]],
      ['comment', RATE_LIMITS.comment, (i) => ({ path: `/api/blogs/${blogId}`, method: 'PATCH', headers: { cookie: reader.cookie }, json: { commentText: `Comment ${i}` } }),
        [{ path: `/blogs/${blogId}`, headers: { cookie: reader.cookie }, form: { intent: 'comment', commentText: 'One more' } }]],
      // Each renders a body in the Markdown pool (docs/decisions/047).
      // A photo of our own store: one given by another address is fetched, and each fetch counts
      // the upload rule too (docs/decisions/050), which would refuse first.
      ['blog write', RATE_LIMITS.blogWrite, (i) => ({ path: '/api/blogs', headers: { cookie: owner.cookie }, json: { ...blogFields, title: `Write ${i}`, photo: '/uploads/x-1600.webp' } }),
        [{ path: `/updateBlog/${blogId}`, headers: { cookie: owner.cookie }, form: { ...blogFields, photo: '/uploads/x-1600.webp' } }]],
      ['preview', RATE_LIMITS.preview, (i) => {
        const body = new FormData();
        body.set('long_description', `Preview *${i}*`);
        return { path: '/blog-preview', headers: { cookie: reader.cookie }, body };
      }, []],
      ['two-factor code', RATE_LIMITS.twoFactor, () => ({ path: '/api/auth/two-factor/verify-totp', json: { code: '123456' } }),
        [{ path: '/login?step=code', form: { intent: 'code', code: '123456' } }]],
      ['upload', RATE_LIMITS.upload, () => {
        const body = new FormData();
        body.set('image', new Blob([TEXT_FILE], { type: 'image/jpeg' }), 'not-a-photo.jpg');
        return { path: '/api/images', headers: { cookie: reader.cookie }, body };
      }, [
        // The three form upload paths count the same rule as the API (docs/decisions/033).
        { path: '/addBlog', headers: { cookie: reader.cookie }, body: withImage(blogFields) },
        { path: '/update-profile', headers: { cookie: reader.cookie }, body: withImage({ name: 'Reader' }, 'photo') },
        { path: '/register', body: withImage({ name: 'Late', email: `late-${randomUUID()}@example.com`, password: 'Sunset123', terms: 'on' }) },
      ]],
    ];
    const lines: string[] = [];
    for (const [name, rule, request, forms] of checks) {
      const who = nextClient();
      const at = (c: Call) => ({ ...c, headers: { ...c.headers, ...who } });
      await expectApiLimited(await exhaust(rule, (i) => call(server, at(request(i, who)))), rule);
      for (const form of forms) {
        const page = await call(server, at(form));
        expect(page.status, `${name} form ${form.path}`).toBe(429);
        expect(await page.text(), `${name} form ${form.path}`).toContain(html(MESSAGES.tooManyRequests));
      }
      lines.push(`${name} ${rule.limit}/${rule.windowMs / 60_000} min (${forms.length} forms)`);
    }
    console.log(`rate-limits: 429 with a JSON message and Retry-After (and the form's message) after ${lines.join(', ')}`);
  });
});

describe('rate limits shared by two instances through Redis', () => {
  const prefix = `afterglow-test:${randomUUID()}:`;
  let redis: Redis | null = null;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      redis = probe;
    } catch {
      probe.disconnect();
      return;
    }
    const env = { RATE_LIMITS: 'on', REDIS_URL, REDIS_PREFIX: prefix };
    servers.push(await startServer(env), await startServer(env));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('holds the sign-in count across both', async (ctx) => {
    if (!redis) {
      console.log(`rate-limits: SKIPPED two instances sharing Redis (no Redis at ${REDIS_URL})`);
      ctx.skip();
      return;
    }
    const rule = RATE_LIMITS.signIn;
    const blocked = await exhaust(rule, (i) => call(servers[i % 2]!, { path: '/api/auth/sign-in/email', json: WRONG }));
    await expectApiLimited(blocked, rule);
    await expectApiLimited(await call(servers[1]!, { path: '/api/auth/sign-in/email', json: WRONG }), rule);
    expect((await redis.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    console.log(`rate-limits: 2 instances sharing Redis: sign-in 429 after ${rule.limit} across both`);
  });
});
