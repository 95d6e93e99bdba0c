import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { waitForDueJobs } from '#test/jobs';
import { createDatabase } from '~/db/kysely.server';
import { slugOfTitle } from '~/features/blogs/blogs.service.server';
import { type KeptRead, pageReadsOf } from '../../server/http/middleware/page-cache.server';
import { apiSession, type ApiSession } from '../support/auth';
import { instanceEnv, linkedAuthorId } from '../support/instances';
import { PUBLIC_BLOG } from '../support/public-blog';
import { builtRoutes } from '../support/routes';
import { type RunningServer, startServer } from '../support/server';

/**
 * Signed-in pages are rendered once per distinct content and filled in with each viewer's
 * strings (docs/decisions/043). Two servers on one database: one keeps renders, one renders
 * every page anew and plainly, with no placeholders to fill (RENDER_MEMO_MB=0). A page a viewer gets from a render made for someone else
 * must be, byte for byte, the page rendered for them (after the request's own nonce, request id
 * and the server's address are set aside), and its data script must carry the same data. (Not
 * the same bytes: turbo-stream writes a string it has already written as a reference, so when a
 * viewer's name is also the blog's author's, the plain render refers back where the kept one
 * repeats it.) The viewers' names, emails and photo hold what each
 * context escapes: quotes, ampersands, angle brackets, `</script>`, a line separator.
 */
const VIEWERS = [
  { name: `Zoë O'Brien & <Co> "Writes"`, email: 'zoe.obrien+a@example.com', photo: null },
  { name: 'Rae </script><b>Reader\u2028two', email: 'rae_reader+b@example.com', photo: 'https://example.com/zoe.jpg?size=80&crop=1' },
  { name: 'Sam \\ "Slash" &amp; Co', email: 's.am+c@example.com', photo: 'https://example.com/sam.png?a=<1>' },
];

describe.each(TEST_DIALECTS)('signed-in pages filled in from a kept render on %s', (dialect) => {
  let scratch: ScratchDatabase;
  let kept: RunningServer;
  let fresh: RunningServer;
  let blogId = '';
  let authorId = '';
  const sessions: ApiSession[] = [];
  const emails: string[] = [];
  /** The pages the viewer memo keeps (docs/decisions/059): every one is compared below. */
  let keptPages: KeptRead[] = [];

  beforeAll(async () => {
    keptPages = pageReadsOf(await builtRoutes()).filter((read) => read.page);
    scratch = await createScratchDatabase(dialect);
    const env = instanceEnv(scratch);
    // One after the other: the first applies the migrations, the second finds them applied.
    kept = await startServer(env);
    fresh = await startServer({ ...env, RENDER_MEMO_MB: '0' });
    const stamp = Date.now();
    for (const viewer of VIEWERS) {
      const email = viewer.email.replace('@', `-${stamp}@`);
      const session = await apiSession(kept.url, { email, name: viewer.name });
      if (viewer.photo) {
        const res = await fetch(`${kept.url}/api/update/${encodeURIComponent(email)}`, {
          method: 'PATCH',
          headers: { cookie: session.cookie, origin: kept.url, 'content-type': 'application/json' },
          body: JSON.stringify({ name: viewer.name, photo: viewer.photo }),
        });
        expect(res.status, await res.clone().text()).toBe(200);
      }
      sessions.push(session);
      emails.push(email);
    }
    // The blog is the first viewer's; the other two read it, neither having liked it.
    const created = await fetch(`${kept.url}/api/blogs`, {
      method: 'POST',
      headers: { cookie: sessions[0]!.cookie, origin: kept.url, 'content-type': 'application/json' },
      body: JSON.stringify({ ...PUBLIC_BLOG, tags: ['slot-tag'] }),
    });
    blogId = ((await created.json()) as { insertedId: string }).insertedId;
    authorId = await linkedAuthorId(`${fresh.url}/blogs/${blogId}`);
    expect(authorId, 'the blog page links its author').not.toBe('');
    // The sign-ups, the rename and the publish leave background jobs whose writes (any reader's
    // kept pages hear of them) would land between two reads below: they run first.
    const database = createDatabase({ databaseUrl: scratch.env.DATABASE_URL, sqlitePath: path.join(scratch.dataDir, 'afterglow.db') });
    try {
      await waitForDueJobs(database.db);
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    await kept?.stop();
    await fresh?.stop();
    await scratch?.drop();
  });

  /**
   * The page for a viewer, with what differs per request and per server set aside, and its data
   * script decoded. A page the viewer memo sends again has no nonce (its policy names its scripts'
   * hashes) and the request id of the render it was kept from (`idInPage`); a rendered page's nonce
   * attributes are left out to compare them.
   */
  const page = async (server: RunningServer, path: string, session: ApiSession, idInPage?: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { cookie: session.cookie } });
    expect(res.status, path).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(Boolean(nonce), path).toBe(idInPage === undefined);
    const text = await res.text();
    const html = (nonce ? text.replaceAll(` nonce="${nonce}"`, '') : text).replaceAll(idInPage ?? requestId!, 'REQUEST-ID').replaceAll(server.url, 'ORIGIN');
    const payloads: string[] = [];
    const body = html.replace(/streamController\.enqueue\(("(?:[^"\\]|\\.)*")\)/g, (_all, literal: string) => {
      payloads.push(JSON.parse(literal) as string);
      return 'streamController.enqueue(DATA)';
    });
    expect(payloads.length, 'the page carries its data').toBeGreaterThan(0);
    const data = await Promise.all(payloads.map(async (text) => (await decodeTurboStream(new Response(text).body!, globalThis)).value));
    return { body, data, render: res.headers.get('x-render'), requestId: requestId! };
  };
  const expectSamePage = (got: Awaited<ReturnType<typeof page>>, plain: Awaited<ReturnType<typeof page>>, path: string) => {
    expect(got.body, path).toBe(plain.body);
    expect(got.data, path).toEqual(plain.data);
  };

  /** Pages every reader sees alike but for their own strings: the memo's pages, and an author's. */
  const sharedPaths = () => [
    '/', '/allblogs', '/featuredBlogs', '/recent', '/memoryframe', '/counter', '/newsletter', '/tags/slot-tag',
    `/blogs/${blogId}`, `/blogs/${blogId}/${slugOfTitle(PUBLIC_BLOG.title)}`, `/authors/${authorId}`,
  ];
  /**
   * A reader's own pages: the render memo keeps them too (per reader where they show the reader's
   * own data, shared where they show only slots: an empty wishlist, no numbers yet).
   */
  const ownPaths = ['/profile', '/profile/stats', '/profile/import', '/update-profile', '/account', '/addBlog', '/wishList', '/following', '/notifications', '/mail/preferences'];

  it('compares every page the viewer memo keeps', () => {
    const unread = keptPages.filter((read) => !sharedPaths().some((path) => read.pattern.test(path)));
    expect(unread.map((read) => String(read.pattern))).toEqual([]);
  });

  it('fills a render kept for one reader in for another, exactly as a render of their own', async () => {
    let again = 0;
    for (const path of sharedPaths()) {
      // The second viewer's visit makes the render; the third's is filled in from it.
      const first = await page(kept, path, sessions[1]!);
      const second = await page(kept, path, sessions[2]!);
      expect([first.render, second.render], path).toEqual(['new', 'kept']);
      expectSamePage(second, await page(fresh, path, sessions[2]!), path);
      expectSamePage(first, await page(fresh, path, sessions[1]!), path);
      expect(second.body).toContain('Sam \\ &quot;Slash&quot; &amp;amp; Co');
      // The viewer memo's pages are sent again to the same reader without their loaders, filled anew.
      if (keptPages.some((read) => read.pattern.test(path))) {
        const sentAgain = await page(kept, path, sessions[2]!, second.requestId);
        expect(sentAgain.render, path).toBe('again');
        expectSamePage(sentAgain, await page(fresh, path, sessions[2]!), `${path} again`);
        again++;
      }
    }
    console.log(`viewer slots (${dialect}): ${sharedPaths().length} pages rendered once for two readers, the second filled in from the first's render; ${again} sent again by the viewer memo; all equal to plain renders`);
  });

  it('shares the home and the newsletter page between two subscribed readers: each one’s address is filled in', async () => {
    for (const email of [emails[1]!, emails[2]!]) {
      const res = await fetch(`${kept.url}/api/subscribers`, { method: 'POST', headers: { origin: kept.url, 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    for (const path of ['/', '/newsletter']) {
      const first = await page(kept, path, sessions[1]!);
      const second = await page(kept, path, sessions[2]!);
      expect([first.render, second.render], path).toEqual(['new', 'kept']);
      expectSamePage(second, await page(fresh, path, sessions[2]!), `${path} subscribed`);
      expectSamePage(first, await page(fresh, path, sessions[1]!), `${path} subscribed`);
      expect(second.body).toContain(`open the link we mailed to <!-- -->${emails[2]}`);
    }
  });

  it("fills a reader's own pages in from their own kept render, exactly as a plain render", async () => {
    for (const session of [sessions[1]!, sessions[2]!]) {
      for (const path of ownPaths) {
        const first = await page(kept, path, session);
        const second = await page(kept, path, session);
        expect(first.render === 'new' || (first.render === 'kept' && session !== sessions[1]), `${path}: ${first.render}`).toBe(true);
        expect(second.render, path).toBe('kept');
        expectSamePage(second, await page(fresh, path, session), path);
        expectSamePage(first, await page(fresh, path, session), path);
      }
    }
  });

  it('renders anew for a viewer whose page shows something else (their own blog), and for the first viewer after a like', async () => {
    const own = await page(kept, `/blogs/${blogId}`, sessions[0]!);
    expect(own.render).toBe('new');
    expectSamePage(own, await page(fresh, `/blogs/${blogId}`, sessions[0]!), 'own blog');
    const liked = await fetch(`${kept.url}/api/blogs/liked/${blogId}`, { method: 'PATCH', headers: { cookie: sessions[1]!.cookie, origin: kept.url } });
    expect(liked.status).toBe(200);
    const after = await page(kept, `/blogs/${blogId}`, sessions[1]!);
    expect(after.render).toBe('new');
    expectSamePage(after, await page(fresh, `/blogs/${blogId}`, sessions[1]!), 'liked');
    // The other reader, who has not liked it, sees the new count from a render of their own kind.
    const other = await page(kept, `/blogs/${blogId}`, sessions[2]!);
    expectSamePage(other, await page(fresh, `/blogs/${blogId}`, sessions[2]!), 'not liked');
    expect(other.body).toMatch(/aria-label="Like \(1 like\)"/);
  });
  it('shares one render between readers with different unread counts: the bell’s figure and label are filled in (docs/decisions/062)', async () => {
    const as = (session: ApiSession, server = kept) => ({ cookie: session.cookie, origin: server.url, 'content-type': 'application/json' });
    // The second reader gets one notification (a follower), the third two (a follower, a like).
    for (const session of [sessions[1]!, sessions[2]!]) {
      const id = await linkedAuthorId(`${kept.url}/profile`, { headers: { cookie: session.cookie } });
      const followed = await fetch(`${kept.url}/follow`, { method: 'POST', headers: { ...as(sessions[0]!), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ writerId: id, intent: 'follow' }) });
      expect(followed.status, 'follow').toBeLessThan(400);
    }
    const theirs = await fetch(`${kept.url}/api/blogs`, { method: 'POST', headers: as(sessions[2]!), body: JSON.stringify({ ...PUBLIC_BLOG, title: 'The third reader writes too' }) });
    const theirBlog = ((await theirs.json()) as { insertedId: string }).insertedId;
    expect((await fetch(`${kept.url}/api/blogs/liked/${theirBlog}`, { method: 'PATCH', headers: as(sessions[0]!) })).status).toBe(200);
    const unread = async (server: RunningServer, session: ApiSession) => ((await (await fetch(`${server.url}/api/notifications/unread-count`, { headers: { cookie: session.cookie } })).json()) as { unread: number }).unread;
    for (const server of [kept, fresh]) {
      await expect.poll(() => unread(server, sessions[1]!), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => unread(server, sessions[2]!), { timeout: 30_000 }).toBe(2);
    }
    // A page that shows neither reader anything of their own (the second liked the first's blog above).
    const path = '/newsletter';
    const first = await page(kept, path, sessions[1]!);
    const second = await page(kept, path, sessions[2]!);
    expect([first.render, second.render]).toEqual(['new', 'kept']);
    expectSamePage(second, await page(fresh, path, sessions[2]!), `${path}, 2 unread`);
    expectSamePage(first, await page(fresh, path, sessions[1]!), `${path}, 1 unread`);
    expect(first.body).toContain('aria-label="Notifications, 1 unread"');
    expect(second.body).toContain('aria-label="Notifications, 2 unread"');
  });
});
