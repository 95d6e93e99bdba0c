import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { waitForDueJobs } from '#test/jobs';
import { apiSession, type ApiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';

/**
 * The spam hold on the built site (docs/decisions/029): a new account's blog is absent
 * from the sitemap, the feeds, featured and the newsletter and carries noindex; after a
 * moderator approves the account it appears everywhere at once, through the page cache.
 */
const blog = (title: string, long_description: string) => ({
  title,
  category: 'Travelling & Photography',
  type: 'Photo',
  short_description: `${title}, briefly.`,
  long_description,
  availability: 'Public',
  photo: '/uploads/00000000-0000-4000-8000-000000000000-1600.webp',
});
const ONE_LINK = 'Photos at [my site](https://photos.example).';
const LINK_FARM = 'https://a.example https://b.example https://c.example';

describe.each(TEST_DIALECTS)('the spam hold on the built site, %s', (dialect) => {
  let server: RunningServer;
  let scratch: ScratchDatabase | null = null;
  let database: DatabaseHandle;
  let admin: ApiSession;
  let fresh: ApiSession & { id: string };
  let settled: ApiSession & { id: string };
  const ids: Record<'held' | 'farm' | 'settled', string> = { held: '', farm: '', settled: '' };

  const get = async (path: string, session?: ApiSession) => {
    const res = await fetch(`${server.url}${path}`, { headers: session ? { cookie: session.cookie } : {} });
    return { status: res.status, text: await res.text(), cache: res.headers.get('x-cache') };
  };
  const send = async (method: string, path: string, session: ApiSession, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: server.url, authorization: `Bearer ${session.token}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const whoAmI = async (session: ApiSession) => ((await (await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie: session.cookie } })).json()) as { user: { id: string } }).user.id;
  /** Whether the blog was announced, once the server's worker ran every job due so far. */
  const announced = async (blogId: string) => {
    await waitForDueJobs(database.db);
    return (await database.db.selectFrom('mail_messages').select('id').where('key', '=', `post:${blogId}`).execute()).length;
  };

  /** Where a blog may be seen beyond its own page, as an anonymous visitor (and a crawler) sees it. */
  async function spread(blogId: string) {
    const [sitemap, atom, rss, category, featuredApi, featuredPage] = await Promise.all([
      get('/sitemap.xml'),
      get('/feed.xml'),
      get('/rss.xml'),
      get('/categories/travelling-photography/feed.xml'),
      get('/api/featuredblogs'),
      get('/featuredBlogs'),
    ]);
    return {
      sitemap: sitemap.text.includes(`/blogs/${blogId}/`),
      atom: atom.text.includes(`/blogs/${blogId}`),
      rss: rss.text.includes(`/blogs/${blogId}`),
      category: category.text.includes(`/blogs/${blogId}`),
      featuredApi: featuredApi.text.includes(blogId),
      featuredPage: featuredPage.text.includes(`/blogs/${blogId}`),
      newsletter: (await announced(blogId)) > 0,
    };
  }
  const everywhere = { sitemap: true, atom: true, rss: true, category: true, featuredApi: true, featuredPage: true, newsletter: true };
  const nowhere = { sitemap: false, atom: false, rss: false, category: false, featuredApi: false, featuredPage: false, newsletter: false };

  beforeAll(async () => {
    const env = { SPAM_HOLD_DAYS: '3', SPAM_HOLD_MAX_LINKS: '2' };
    if (dialect === 'postgres') {
      scratch = await createScratchDatabase('postgres');
      server = await startServer({ ...env, DATABASE_URL: scratch.env.DATABASE_URL! });
    } else {
      server = await startServer(env);
    }
    database = createDatabase({ databaseUrl: scratch?.env.DATABASE_URL, sqlitePath: `${server.dataDir}/afterglow.db` });
    const tag = randomUUID().slice(0, 8);
    admin = await apiSession(server.url, { email: `admin-${tag}@example.com`, name: 'Ada Admin' });
    // The operator's own command, against this server's database.
    execFileSync(process.execPath, ['scripts/admin.js', 'grant', `admin-${tag}@example.com`], {
      env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn', ...(scratch ? { DATABASE_URL: scratch.env.DATABASE_URL! } : {}) },
    });
    fresh = await apiSession(server.url, { email: `fresh-${tag}@example.com`, name: 'Fresh Face' }).then(async (s) => ({ ...s, id: await whoAmI(s) }));
    settled = await apiSession(server.url, { email: `settled-${tag}@example.com`, name: 'Settled Sam' }).then(async (s) => ({ ...s, id: await whoAmI(s) }));
    // Sam signed up a month ago: the same column better-auth wrote, moved back in its own format.
    const auth = database.authDb as unknown as import('kysely').Kysely<{ user: { id: string; createdAt: unknown } }>;
    const { createdAt } = await auth.selectFrom('user').select('createdAt').where('id', '=', settled.id).executeTakeFirstOrThrow();
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    const moved = typeof createdAt === 'number' ? monthAgo.getTime() : createdAt instanceof Date ? monthAgo : monthAgo.toISOString();
    await auth.updateTable('user').set({ createdAt: moved }).where('id', '=', settled.id).execute();
    // One confirmed subscriber, so an announcement has someone to go to.
    await database.db.insertInto('subscribers').values({ id: randomUUID(), email: `fan-${tag}@example.com`, created_at: new Date().toISOString(), confirmed_at: new Date().toISOString(), delivery: 'post' }).execute();
  });
  afterAll(async () => {
    await database?.close();
    await server?.stop();
    await scratch?.drop();
  });

  it("a new account's blog is readable but spreads nowhere, carries noindex and nofollow; a settled writer's spreads at once", async () => {
    ids.held = ((await send('POST', '/api/blogs', fresh, blog('Held harbour', ONE_LINK))).body.insertedId as string);
    ids.settled = ((await send('POST', '/api/blogs', settled, blog('Settled shore', ONE_LINK))).body.insertedId as string);
    expect(await spread(ids.held)).toEqual(nowhere);
    expect(await spread(ids.settled)).toEqual(everywhere);

    const held = await get(`/blogs/${ids.held}`);
    expect(held.status).toBe(200);
    expect(held.text).toMatch(/<meta name="robots" content="noindex"\/>/);
    expect(held.text).toContain('rel="nofollow ugc noopener"');
    const settledPage = await get(`/blogs/${ids.settled}`);
    expect(settledPage.text).not.toContain('name="robots"');
    expect(settledPage.text).toContain('href="https://photos.example" rel="ugc noopener"');
    // Still on the site's own lists, where readers can report it.
    expect((await get('/api/blogs?limit=50')).text).toContain(ids.held);
  });

  it('more than K links waits: only its writer sees it, with a clear note; the queue lists it', async () => {
    const posted = await send('POST', '/api/blogs', fresh, blog('Link farm', LINK_FARM));
    ids.farm = posted.body.insertedId as string;
    expect((await get(`/blogs/${ids.farm}`)).status).toBe(404);
    expect((await get(`/api/blogs/${ids.farm}`)).status).toBe(404);
    const own = await get(`/blogs/${ids.farm}`, fresh);
    expect(own.status).toBe(200);
    expect(own.text).toContain('Waiting for a moderator');
    const pending = (await (await fetch(`${server.url}/api/moderation/pending`, { headers: { authorization: `Bearer ${admin.token}` } })).json()) as { pending: { targetId: string }[]; held: { userId: string }[] };
    expect(pending.pending.map((p) => p.targetId)).toEqual([ids.farm]);
    expect(pending.held.map((h) => h.userId)).toEqual([fresh.id]);
  });

  it('"Approve account": every blog of it appears everywhere at once, on every cached read, and the log says so', async () => {
    // Every read is kept by the page cache as it stands now (the link farm revised the writer's
    // other blogs when it came: their ends of post list her posts, docs/decisions/061).
    await spread(ids.held);
    await get(`/blogs/${ids.held}`);
    expect((await get(`/blogs/${ids.held}`)).cache).toBe('HIT');
    expect((await send('POST', `/api/moderation/users/${fresh.id}/approve`, fresh, { reason: 'Myself' })).status).toBe(403);
    expect(await send('POST', `/api/moderation/users/${fresh.id}/approve`, admin, { reason: 'Known photographer' })).toEqual({ status: 200, body: { modifiedCount: 1 } });

    expect(await spread(ids.held)).toEqual(everywhere);
    expect(await spread(ids.farm)).toEqual(everywhere);
    const page = await get(`/blogs/${ids.held}`);
    expect(page.text).not.toContain('name="robots"');
    expect(page.text).toContain('href="https://photos.example" rel="ugc noopener"');
    expect((await get(`/blogs/${ids.farm}`)).status).toBe(200);

    const log = (await (await fetch(`${server.url}/api/moderation/log`, { headers: { authorization: `Bearer ${admin.token}` } })).json()) as { actorName: string; action: string; targetId: string; reason: string }[];
    expect(log.map((e) => [e.actorName, e.action, e.targetId, e.reason])).toContainEqual(['Ada Admin', 'approve_account', fresh.id, 'Known photographer']);
  });
});
