import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { formatTable, type LoadRoute, runRoutes, signUpUser } from '../../scripts/cluster-load.js';
import { type Cluster, dropDatabase, startCluster } from '../../scripts/cluster.js';
import { jpegImage } from '../support/images';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { signUp } from '../support/auth';
import { type Browser, openBrowser, waitForHydration } from '../support/browser';
import { freePort } from '../support/server';

// `npm run test:cluster`: the cluster of `npm run cluster` (two instances, PostgreSQL, s3rver,
// Redis, nginx), proven through its front door: a browser smoke run, sessions and rate limits
// shared by both instances, and one instance killed under load.

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
const hasNginx = spawnSync('sh', ['-c', 'command -v nginx']).status === 0;
const [hasRedis, hasPostgres] = await Promise.all([reachable(6379), reachable(5432)]);
const missing = [!hasNginx && 'nginx', !hasRedis && 'Redis on 127.0.0.1:6379', !hasPostgres && 'PostgreSQL on 127.0.0.1:5432'].filter(Boolean);
if (missing.length) console.log(`Cluster tests skipped: ${missing.join(', ')} not available (npm run cluster installs nginx).`);

const REDIS_URL = 'redis://127.0.0.1:6379/15';
const DATABASE_URL = `postgres://postgres@127.0.0.1:5432/afterglow_cluster_test_${process.pid}`;

/** A base port whose neighbours (+1, +2 for the instances, +100 for S3) are free too. */
async function freeBase(): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base > 65000) continue;
    if (!(await Promise.all([1, 2, 100].map((d) => reachable(base + d)))).some(Boolean)) return base;
  }
}

describe.skipIf(missing.length > 0)('two instances behind nginx', () => {
  let cluster: Cluster;
  const dir = mkdtempSync(path.join(tmpdir(), 'afterglow-cluster-'));
  const browsers: Browser[] = [];
  let writer: { cookie: string; email: string };
  let blogId = '';

  beforeAll(async () => {
    // Rate-limit counters of earlier runs would count against this one: a Redis database of its own.
    const redis = new Redis(REDIS_URL);
    await redis.flushdb();
    redis.disconnect();
    cluster = await startCluster({ port: await freeBase(), dir, databaseUrl: DATABASE_URL, redisUrl: REDIS_URL, quiet: true, say: () => {} });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(browsers.map((b) => b.close()));
    await cluster?.stop();
    await dropDatabase(DATABASE_URL).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the browser smoke journey: home, sign up, write with an image, read, like, comment', async () => {
    const url = cluster.url;
    const author = await openBrowser();
    browsers.push(author);
    await author.page.goto(url);
    expect(await author.page.title()).toMatch(/Afterglow/);
    const user = await signUp(author.context, url, { name: 'Cluster Writer' });
    await author.page.goto(`${url}/addBlog`);
    await waitForHydration(author.page);
    await author.page.getByLabel('Title').fill('Two servers, one sunset');
    await author.page.getByLabel('Category').selectOption('Travelling & Photography');
    await author.page.getByLabel('Type').selectOption('Photo');
    await author.page.getByLabel('Short description').fill('Written through nginx.');
    await author.page.getByLabel('Long description').fill('Whichever instance answers, the blog is the same.');
    await author.page.getByLabel('Availability').selectOption('Public');
    await author.page.getByLabel('Image').setInputFiles({ name: 'pier.jpg', mimeType: 'image/jpeg', buffer: await jpegImage(1200, 800) });
    await author.page.getByRole('button', { name: 'Add Blog' }).click();
    await author.page.getByText('Your Blog added successfully!').waitFor();
    const blogs = (await (await fetch(`${url}/api/blogs?limit=10`)).json()) as { _id: string; title: string }[];
    blogId = blogs.find((b) => b.title === 'Two servers, one sunset')!._id;
    expect(blogId).toBeTruthy();
    writer = { email: user.email, cookie: (await author.context.cookies(url)).map((c) => `${c.name}=${c.value}`).join('; ') };

    const reader = await openBrowser();
    browsers.push(reader);
    await signUp(reader.context, url, { name: 'Cluster Reader' });
    await reader.page.goto(`${url}/blogs/${blogId}`);
    await waitForHydration(reader.page);
    await reader.page.getByRole('heading', { name: 'Two servers, one sunset' }).waitFor();
    // The photo comes from S3 through nginx, whichever instance rendered the page.
    const photo = reader.page.locator('main img').first();
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await reader.page.getByTestId('like-button').click();
    await reader.page.getByTestId('toasts').getByText('Liked successfully!').waitFor();
    await reader.page.getByLabel('Comment', { exact: true }).fill('Seen from the other instance.');
    await reader.page.getByRole('button', { name: 'Post Comment' }).click();
    await reader.page.getByTestId('toasts').getByText('Comment posted successfully').waitFor();
    const blog = (await (await fetch(`${url}/api/blogs/${blogId}`)).json()) as { likes: number; comments: unknown[] };
    expect(blog.likes).toBe(1);
    expect(blog.comments).toHaveLength(1);
    expect([...author.errors, ...reader.errors]).toEqual([]);
  });

  const whoAmI = async (base: string, cookie: string) => {
    const body = (await (await fetch(`${base}/api/auth/get-session`, { headers: { cookie } })).json()) as { user?: { email: string } } | null;
    return body?.user?.email ?? null;
  };

  it('signs out through one instance and the old cookie is refused by both', async () => {
    const [a, b] = cluster.instances;
    const user = await signUpUser(cluster.url, `session-${Date.now()}@cluster.test`);
    expect(await whoAmI(a!.url, user.cookie)).toBe(user.email);
    expect(await whoAmI(b!.url, user.cookie)).toBe(user.email);
    const out = await fetch(`${a!.url}/api/auth/sign-out`, { method: 'POST', headers: { cookie: user.cookie, origin: cluster.url, 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBe(200);
    const refused = [await whoAmI(a!.url, user.cookie), await whoAmI(b!.url, user.cookie), await whoAmI(cluster.url, user.cookie)];
    console.log(`cluster sessions: signed out on one instance, old cookie refused by ${refused.filter((r) => r === null).length} of 3 (both instances and nginx)`);
    expect(refused).toEqual([null, null, null]);
  });

  it('loses only in-flight requests (< 1%) and no session when one instance is killed under load', async () => {
    const url = cluster.url;
    const client = await signUpUser(url, `steady-${Date.now()}@cluster.test`);
    let sessionsLost = 0;
    let likeToggles = 0;
    const routes: LoadRoute[] = [
      { name: 'GET /api/blogs', weight: 35, kind: 'read', request: () => ({ method: 'GET', path: '/api/blogs?limit=12' }) },
      { name: 'GET /', weight: 20, kind: 'read', request: () => ({ method: 'GET', path: '/' }) },
      { name: 'GET /blogs/:id', weight: 20, kind: 'read', request: () => ({ method: 'GET', path: `/blogs/${blogId}` }) },
      {
        name: 'GET session',
        weight: 15,
        kind: 'read',
        request: () => ({ method: 'GET', path: '/api/auth/get-session', headers: { cookie: client.cookie } }),
        check: (status, body) => {
          if (status === 200 && !body.includes(client.email)) sessionsLost++;
        },
      },
      {
        // Likes and unlikes, in turn: writes with no rate limit of their own (comments allow 30
        // an hour per account, so one client commenting all run long would measure the limit).
        name: 'PATCH/DELETE like',
        weight: 10,
        kind: 'write',
        request: () => ({
          method: ++likeToggles % 2 ? 'PATCH' : 'DELETE',
          path: `/api/blogs/liked/${blogId}`,
          headers: { cookie: client.cookie, origin: url, 'content-type': 'application/json' },
          body: '{}',
        }),
        check: (status) => {
          if (status === 401) sessionsLost++;
        },
      },
    ];
    const victim = cluster.instances[1]!;
    const duration = 20;
    // Whatever the figures, the tests after this one get both instances back.
    onTestFinished(async () => {
      if (victim.child?.exitCode !== null) await victim.start();
    });
    const rows = await runRoutes(url, routes, {
      connections: 20,
      duration,
      // Halfway through, the second instance dies without a chance to finish anything.
      during: async () => {
        await new Promise((r) => setTimeout(r, (duration * 1000) / 2));
        await victim.kill('SIGKILL');
      },
    });
    const { table, answered, errors, unexpected } = formatTable(rows, duration);
    const failedShare = (errors + unexpected) / (answered + errors);
    const stillSignedIn = (await whoAmI(url, client.cookie)) === client.email && (await whoAmI(cluster.instances[0]!.url, client.cookie)) === client.email;
    console.log(`${table}\ncluster kill -9 of 1 of 2 instances mid-run: ${answered + errors} requests, failed share ${(failedShare * 100).toFixed(2)}% (${errors} transport errors, ${unexpected} unexpected statuses), sessions lost ${sessionsLost + (stillSignedIn ? 0 : 1)}`);
    expect(failedShare).toBeLessThan(0.01);
    expect(sessionsLost).toBe(0);
    expect(stillSignedIn).toBe(true);
    // The killed instance comes back and takes its share again.
    await victim.start();
    expect(await whoAmI(victim.url, client.cookie)).toBe(client.email);
  });

  it('shares the sign-in rate limit between both instances (Redis): the attempt past the limit is refused with 429', async () => {
    const { limit } = RATE_LIMITS.signIn;
    const targets = [cluster.url, ...cluster.instances.map((i) => i.url)];
    const statuses: number[] = [];
    for (let i = 0; i <= limit; i++) {
      const base = targets[i % targets.length]!;
      const res = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        // The site's origin is its public URL (nginx), whichever instance is asked.
        headers: { 'content-type': 'application/json', origin: cluster.url },
        body: JSON.stringify({ email: writer.email, password: 'not-the-password' }),
      });
      statuses.push(res.status);
    }
    console.log(`cluster rate limit: sign-in attempts spread over nginx and both instances answered ${statuses.join(' ')}`);
    expect(statuses.slice(0, limit).every((s) => s === 401)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });
});
