import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '#server/http/api/operations.server';
import { createTestApp, TEST_ORIGIN, type TestApp, type TestUser } from '#test/test-app';
import { openBrowser } from '../support/browser';
import { freePort, type RunningServer, startServer } from '../support/server';

const PAGE_ACTIONS = ['/logout', '/login', '/login?step=code', '/register', '/addBlog', '/update-profile', '/profile', '/forgot-password', '/wishlist/add', '/newsletter', '/'];

describe('cross-site request forgery', () => {
  let t: TestApp;
  let victim: TestUser;
  let blogId = '';
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    victim = await t.createUser();
    const res = await t.request('/api/blogs', {
      method: 'POST',
      headers: { cookie: victim.cookie },
      json: { title: 'Mine', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' },
    });
    blogId = ((await res.json()) as { insertedId: string }).insertedId;
  });
  afterAll(async () => t?.close());

  const snapshot = async () => {
    const hash = createHash('sha256');
    for (const table of ['blogs', 'comments', 'likes', 'wishlist', 'subscribers', 'profiles', 'user', 'session'] as const) {
      hash.update(JSON.stringify((await t.deps.database.db.selectFrom(table as 'blogs').selectAll().execute()).map((r) => JSON.stringify(r)).sort()));
    }
    return hash.digest('hex');
  };

  it('refuses every cookie-authenticated change from another origin, however it is encoded', async () => {
    const targets = [
      ...OPERATIONS.filter((op) => op.method !== 'get').map((op) => ({ method: op.method.toUpperCase(), path: op.path.replace(/\{\w+\}/g, op.path.includes('email') ? encodeURIComponent(victim.user.email) : blogId) })),
      ...PAGE_ACTIONS.map((path) => ({ method: 'POST', path })),
      ...['update-user', 'change-password', 'two-factor/enable', 'two-factor/disable'].map((name) => ({ method: 'POST', path: `/api/auth/${name}` })),
    ];
    const variants: [string, Record<string, string>, string][] = [
      ['foreign Origin, JSON', { origin: 'http://evil.test', 'content-type': 'application/json' }, JSON.stringify({ title: 'pwned', commentText: 'pwned', name: 'pwned', email: 'x@evil.test', blogId })],
      ['no Origin, JSON', { 'content-type': 'application/json' }, JSON.stringify({ title: 'pwned', commentText: 'pwned', blogId })],
      ['foreign Origin, text/plain', { origin: 'http://evil.test', 'content-type': 'text/plain' }, JSON.stringify({ title: 'pwned', commentText: 'pwned' })],
      ['foreign Origin, form', { origin: 'http://evil.test', 'content-type': 'application/x-www-form-urlencoded' }, 'title=pwned&commentText=pwned&blogId=' + blogId],
      ['null Origin, form', { origin: 'null', 'content-type': 'application/x-www-form-urlencoded' }, 'title=pwned'],
      ['same Origin claimed but cross-site fetch metadata', { origin: TEST_ORIGIN, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, JSON.stringify({ title: 'pwned' })],
    ];
    const before = await snapshot();
    const accepted: string[] = [];
    let tried = 0;
    for (const target of targets) {
      for (const [name, headers, body] of variants) {
        tried++;
        const res = await t.app.fetch(new Request(`${TEST_ORIGIN}${target.path}`, { method: target.method, headers: { ...headers, cookie: victim.cookie }, body }), {
          incoming: { socket: { remoteAddress: '127.0.0.1' } },
        });
        if (res.status !== 403) accepted.push(`${target.method} ${target.path} (${name}): ${res.status}`);
      }
    }
    const changed = (await snapshot()) === before ? 0 : 1;
    console.log(`csrf: ${accepted.length} accepted / ${tried} forged requests (${targets.length} targets × ${variants.length} encodings), ${changed} rows changed`);
    expect(accepted).toEqual([]);
    expect(changed).toBe(0);
  });

  it('changes no state on GET', async () => {
    const before = await snapshot();
    for (const op of OPERATIONS) {
      await t.request(op.path.replace(/\{\w+\}/g, blogId), { method: 'GET', headers: { cookie: victim.cookie } });
    }
    for (const path of ['/logout', '/api/auth/sign-out', '/wishlist/add', `/blogs/${blogId}/like`]) {
      await t.request(`${path}?blogId=${blogId}`, { method: 'GET', headers: { cookie: victim.cookie } });
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('a real browser on another site', () => {
  let server: RunningServer;
  let attacker: Server;
  let attackerUrl = '';
  beforeAll(async () => {
    server = await startServer();
    const port = await freePort();
    attacker = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><body>
        <form id="f" method="post" action="${server.url}/api/blogs" enctype="text/plain">
          <input name='{"title":"pwned","category":"Personal","type":"Mini blog","short_description":"s","long_description":"l","availability":"Public","photo":"/uploads/x-1600.webp","x":"' value='"}'>
        </form>
        <form id="g" method="post" action="${server.url}/logout"></form>
        <script>
          fetch('${server.url}/api/blogs', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ title: 'pwned by fetch', category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', availability: 'Public', photo: '/uploads/x-1600.webp' }) })
            .finally(() => { document.title = 'fetched'; document.getElementById('f').submit(); });
        </script></body></html>`);
    });
    await new Promise<void>((r) => attacker.listen(port, '127.0.0.2', r));
    attackerUrl = `http://127.0.0.2:${port}/`;
  });
  afterAll(async () => {
    attacker?.close();
    await server?.stop();
  });

  it('cannot make the signed-in victim write anything', async () => {
    const browser = await openBrowser();
    try {
      const { context, page } = browser;
      const signUp = await context.request.post(`${server.url}/api/auth/sign-up/email`, {
        data: { email: 'victim@example.com', password: 'Sunset123', name: 'Victim' },
        headers: { origin: server.url },
      });
      expect(signUp.ok()).toBe(true);
      const token = signUp.headers()['set-auth-token'];
      await page.goto(attackerUrl);
      // The forged form really reached us (the page navigated to our answer) and was refused.
      await page.waitForURL((url) => url.toString().startsWith(server.url), { timeout: 10_000 });
      expect(await page.textContent('body')).toContain('Cross-site request refused.');
      const mine = await fetch(`${server.url}/api/blogs?limit=100`, { headers: { authorization: `Bearer ${token}` } });
      const titles = ((await mine.json()) as { title: string }[]).map((b) => b.title);
      console.log(`csrf (browser, 127.0.0.2 → 127.0.0.1): form post and no-cors fetch, ${titles.filter((x) => x.startsWith('pwned')).length} accepted`);
      expect(titles.filter((x) => x.startsWith('pwned'))).toEqual([]);
      const session = await fetch(`${server.url}/api/auth/get-session`, { headers: { authorization: `Bearer ${token}` } });
      expect(((await session.json()) as { user?: { email: string } } | null)?.user?.email).toBe('victim@example.com');
    } finally {
      await browser.close();
    }
  });
});
