import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { TEST_DIALECTS } from '../support/databases';
import { PUBLIC_BLOG } from '../support/public-blog';
import { type RunningServer, startServerOn } from '../support/server';

/**
 * GET /metrics (docs/decisions/052): the series an operator scrapes, that they move as requests
 * arrive, and who is answered. The server is a TRUST_PROXY'd one on loopback, so a test names
 * the client with X-Forwarded-For: a public address is a client from the internet.
 */

const PUBLIC_CLIENT = '203.0.113.7';
const PRIVATE_CLIENT = '10.1.2.3';
const TOKEN = 'scrape-token-0123456789abcdef';

/** One series' value from the text format; undefined when the series is absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(server: RunningServer, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.text();
}

/** `count` requests, `width` at a time. */
async function load(count: number, width: number, send: (i: number) => Promise<Response>) {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const res = await send(next++);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

describe.each(TEST_DIALECTS)('/metrics on %s', (dialect) => {
  let server: RunningServer;
  let blogId: string;
  let reader: { cookie: string };
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  beforeAll(async () => {
    server = await startServerOn(dialect, { TRUST_PROXY: '127.0.0.1', RATE_LIMITS: 'on' });
    const author = await apiSession(server.url, { email: `author-${Date.now()}@example.com`, name: 'Ada Author' });
    reader = await apiSession(server.url, { email: `reader-${Date.now()}@example.com`, name: 'Rae Reader' });
    const created = await fetch(`${server.url}/api/blogs`, {
      method: 'POST',
      headers: { cookie: author.cookie, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify(PUBLIC_BLOG),
    });
    blogId = ((await created.json()) as { insertedId: string }).insertedId;
  });
  afterAll(async () => server?.stop());

  it('answers loopback and private clients, and is 404 to a public one', async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`, { headers: from(PRIVATE_CLIENT) })).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`, { headers: from('192.168.4.20') })).status).toBe(200);
    const refused = await fetch(`${server.url}/metrics`, { headers: from(PUBLIC_CLIENT) });
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain('process_cpu');
    expect((await fetch(`${server.url}/metrics`, { headers: from('2001:db8::7') })).status).toBe(404);
    // A forwarded-for chain ending at a public client is that client, whatever it claims before.
    expect((await fetch(`${server.url}/metrics`, { headers: from(`127.0.0.1, ${PUBLIC_CLIENT}`) })).status).toBe(404);
  });

  it('is in no sitemap and never kept', async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    expect(sitemap).not.toContain('/metrics');
    const res = await fetch(`${server.url}/metrics`);
    expect(res.headers.get('x-cache')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
  });

  it('gives the process, request, cache, queue, pool, rate-limit and sign-in series, and they move under load', async () => {
    const before = await scrape(server);
    for (const series of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'afterglow_sign_in_failures_total', 'afterglow_db_pool_max', 'afterglow_database_up', 'afterglow_views_buffered']) {
      expect(value(before, series), series).toBeTypeOf('number');
    }
    for (const series of ['afterglow_queue_depth{queue="mail"}', 'afterglow_queue_depth{queue="reports"}', 'afterglow_queue_oldest_age_seconds{queue="mail"}', 'afterglow_rate_limit_refusals_total{rule="sign-in"}']) {
      expect(value(before, series), series).toBeTypeOf('number');
    }
    expect(value(before, 'afterglow_database_up')).toBe(1);
    expect(before).toContain(`afterglow_info{version="`);
    expect(before).toContain(`database="${dialect}"`);
    if (dialect === 'postgres') {
      expect(value(before, 'afterglow_db_pool_max')).toBe(10);
      expect(value(before, 'afterglow_db_pool_connections{state="idle"}')).toBeTypeOf('number');
      expect(value(before, 'afterglow_db_pool_waiting')).toBe(0);
    }

    // Anonymous readers: the home page and a blog page, 25 at a time.
    const home = await load(300, 25, () => fetch(`${server.url}/`));
    const blog = await load(300, 25, () => fetch(`${server.url}/blogs/${blogId}`));
    expect(new Set([...home, ...blog])).toEqual(new Set([200]));
    // A signed-in reader twice on the same page: the second is filled in from the kept render.
    for (let i = 0; i < 2; i++) await (await fetch(`${server.url}/allblogs`, { headers: { cookie: reader.cookie } })).text();
    // Wrong passwords: through the API, and through the sign-in form.
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json', ...from(`198.51.100.${i + 1}`) },
        body: JSON.stringify({ email: `nobody-${i}@example.com`, password: 'Wrong1234' }),
      });
      expect(res.status).toBe(401);
    }
    const form = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', ...from('198.51.100.9') },
      body: new URLSearchParams({ email: 'nobody-form@example.com', password: 'Wrong1234' }),
    });
    expect(form.status).toBe(401);
    // One address over the sign-in limit (5 an hour): five wrong passwords, then a refusal.
    const tries = await load(6, 1, (i) =>
      fetch(`${server.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json', ...from(PUBLIC_CLIENT) },
        body: JSON.stringify({ email: `limited-${i}@example.com`, password: 'Wrong1234' }),
      }),
    );
    expect(tries).toEqual([401, 401, 401, 401, 401, 429]);
    // A report waits for a moderator.
    const report = await fetch(`${server.url}/api/reports`, {
      method: 'POST',
      headers: { cookie: reader.cookie, origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ targetType: 'blog', targetId: blogId, reason: 'Spam' }),
    });
    expect(report.status).toBe(201);

    const after = await scrape(server);
    const moved = (series: string) => (value(after, series) ?? 0) - (value(before, series) ?? 0);
    expect(moved('afterglow_http_request_duration_seconds_count{route="/",status="200",method="GET"}')).toBe(300);
    expect(moved('afterglow_http_request_duration_seconds_count{route="/blogs/:id",status="200",method="GET"}')).toBe(300);
    expect(moved('afterglow_http_request_duration_seconds_bucket{route="/blogs/:id",status="200",method="GET",le="+Inf"}')).toBe(300);
    expect(moved('afterglow_http_request_duration_seconds_sum{route="/blogs/:id",status="200",method="GET"}')).toBeGreaterThan(0);
    expect(moved('afterglow_http_request_duration_seconds_count{route="/api/auth/sign-in/email",status="429",method="POST"}')).toBe(1);
    expect(moved('afterglow_http_request_duration_seconds_count{route="/login",status="401",method="POST"}')).toBe(1);
    // Each page is rendered at most a few times (a burst of misses waits for one render); the rest are hits.
    expect(moved('afterglow_page_cache_requests_total{result="hit"}')).toBeGreaterThanOrEqual(590);
    expect(moved('afterglow_page_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
    expect(moved('afterglow_render_memo_requests_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(moved('afterglow_render_memo_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
    // The caches' own counts of what they hold (decision 087), within their bounds (32 and 16 MB
    // by default): at least the blog page just read, and the signed-in render kept.
    const page = Buffer.byteLength(await (await fetch(`${server.url}/blogs/${blogId}`)).text());
    const pageCache = value(after, 'afterglow_memory_held_bytes{part="page_cache"}') ?? 0;
    expect(pageCache).toBeGreaterThanOrEqual(page);
    expect(pageCache).toBeLessThanOrEqual(32 * 2 ** 20);
    expect(value(after, 'afterglow_memory_held_bytes{part="render_memo"}')).toBeGreaterThan(0);
    expect(value(after, 'afterglow_memory_held_bytes{part="render_memo"}')).toBeLessThanOrEqual(16 * 2 ** 20);
    expect(moved('afterglow_sign_in_failures_total')).toBe(3 + 1 + 5);
    expect(moved('afterglow_rate_limit_refusals_total{rule="sign-in"}')).toBe(1);
    expect(value(after, 'afterglow_queue_depth{queue="reports"}')).toBe(1);
    expect(value(after, 'afterglow_queue_oldest_age_seconds{queue="reports"}')).toBeGreaterThanOrEqual(0);
    // Labels are the routes' patterns, never a URL: the blog's id appears in no series.
    expect(after).not.toContain(blogId);

    // The dashboard in docs/ reads only series this scrape has.
    const dashboard = readFileSync('docs/grafana-dashboard.json', 'utf8');
    const used = new Set([...dashboard.matchAll(/\b((?:afterglow|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1]!));
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((name) => !new RegExp(`^${name}[ {]`, 'm').test(after) && !(dialect === 'sqlite' && /^afterglow_db_pool_(connections|waiting)$/.test(name)));
    expect(missing).toEqual([]);
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServerOn('sqlite', { TRUST_PROXY: '127.0.0.1', METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => server?.stop());

  it('asks everyone for the bearer token, loopback included, and answers it from anywhere', async () => {
    const wrong: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789abcd' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of wrong) {
      const res = await fetch(`${server.url}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(value(await scrape(server, { authorization: `Bearer ${TOKEN}` }), 'afterglow_database_up')).toBe(1);
    expect(value(await scrape(server, { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': PUBLIC_CLIENT }), 'afterglow_database_up')).toBe(1);
  });
});
