import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { openBrowser, waitForHydration } from '../support/browser';
import { type RunningServer, startServer } from '../support/server';

/** Classic stored-XSS vectors: each would call alert() or break out of its context if rendered as markup. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<svg onload=alert(3)>',
  '"><script>alert(4)</script>',
  "'><img src=x onerror=alert(5)>",
  '<iframe src="javascript:alert(6)"></iframe>',
  '<a href="javascript:alert(7)">click</a>',
  '<body onload=alert(8)>',
  '<details open ontoggle=alert(9)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(10)>',
  '</title><script>alert(11)</script>',
  '</textarea><script>alert(12)</script>',
  '<style>@import "javascript:alert(13)";</style>',
  '<input autofocus onfocus=alert(14)>',
  '<video><source onerror=alert(15)></video>',
  '<object data="javascript:alert(16)"></object>',
  '<embed src="javascript:alert(17)">',
  '<base href="javascript:alert(18)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(19)">',
  '{{constructor.constructor("alert(20)")()}}',
  '${alert(21)}',
  '<scr<script>ipt>alert(22)</script>',
  '"onmouseover="alert(23)',
  '[click](javascript:alert(24))',
  '![x](x" onerror="alert(25))',
  '<form action="javascript:alert(26)"><button>go</button></form>',
  '\u003cscript\u003ealert(27)\u003c/script\u003e',
  '<img src="x" onerror="&#97;&#108;&#101;&#114;&#116;(28)">',
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

async function api(path: string, token: string, body: unknown, method = 'POST') {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

const signUp = (name: string, email: string) => apiSession(server.url, { email, name });

describe('stored XSS', () => {
  it('executes none of the payloads in any field of any view', async () => {
    const reader = await signUp(PAYLOADS[0]!, 'reader@xss.test');
    const ids: string[] = [];
    for (const [i, payload] of PAYLOADS.entries()) {
      // The author's display name carries a payload too (it shows on cards, detail and comments).
      const writer = await signUp(payload, `writer${i}@xss.test`);
      const { insertedId } = await api('/api/blogs', writer.token, {
        title: payload,
        category: 'Personal',
        type: 'written content',
        short_description: payload,
        // 'xsscorpus' makes every blog a search hit, so its excerpt (with the payload) is shown.
        long_description: `# ${payload}\n\n${payload} xsscorpus\n\n[link](javascript:alert(99)) ${payload}`,
        details: payload,
        availability: 'Public',
        photo: '/uploads/x-1600.webp',
      });
      ids.push(insertedId as string);
      await api(`/api/blogs/${insertedId}`, reader.token, { commentText: payload }, 'PATCH');
      await api(`/api/blogs/liked/${insertedId}`, reader.token, {}, 'PATCH');
      await api('/api/wishlist', reader.token, { blogId: insertedId, title: payload, description: payload, createdAt: new Date().toISOString() });
    }

    const browser = await openBrowser();
    const executed: string[] = [];
    const violations: string[] = [];
    try {
      const { page, context } = browser;
      page.on('dialog', async (dialog) => {
        executed.push(`${page.url()}: dialog "${dialog.message()}"`);
        await dialog.dismiss();
      });
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          ((window as unknown as { __violations: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      const [name, value] = reader.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: server.url }]);
      const views = [
        ...ids.map((id) => `/blogs/${id}`),
        '/',
        '/allblogs',
        '/allblogs?page=2',
        '/allblogs?page=3',
        '/allblogs?q=xsscorpus',
        '/allblogs?q=xsscorpus&page=2',
        '/allblogs?q=xsscorpus&page=3',
        `/allblogs?q=${encodeURIComponent(PAYLOADS[0]!)}`,
        '/featuredBlogs',
        '/wishList',
        '/wishList?page=2',
        '/wishList?page=3',
        '/profile',
        `/blogs/${encodeURIComponent(PAYLOADS[0]!)}`,
        `/${encodeURIComponent(PAYLOADS[1]!)}`,
      ];
      for (const view of views) {
        await page.goto(`${server.url}${view}`);
        await waitForHydration(page);
        // Interaction-triggered vectors (onfocus, onmouseover, ontoggle) get their chance too.
        await page.mouse.move(200, 300);
        await page.keyboard.press('Tab');
        violations.push(...((await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? [])) as string[]).map((v) => `${view}: ${v}`));
      }
      // The excerpts were really there: each card's, with our own highlight only.
      await page.goto(`${server.url}/allblogs?q=xsscorpus`);
      expect(await page.getByTestId('search-snippet').count()).toBe(12);
      expect(new Set(await page.getByTestId('search-snippet').locator('mark').allTextContents())).toEqual(new Set(['xsscorpus']));
      expect(await page.getByTestId('search-snippet').locator('*:not(mark)').count()).toBe(0);
      // The same pages reached by client-side navigation (rendered by React in the browser).
      await page.goto(`${server.url}/allblogs`);
      await waitForHydration(page);
      for (const id of ids.slice(0, 12)) {
        const link = page.locator(`a[href="/blogs/${id}"]`).first();
        if ((await link.count()) === 0) continue;
        await link.click();
        await page.waitForURL(`${server.url}/blogs/${id}`);
        await page.goBack();
      }
      const title = await page.title();
      expect(title).not.toContain('<script>');
      console.log(`xss: ${executed.length} executed, ${violations.length} CSP violations / ${PAYLOADS.length} payloads × 8 fields (title, short, long markdown, search excerpt, details, comment, author name, wishlist text) × ${views.length + 12} views`);
    } finally {
      await browser.close();
    }
    expect(executed).toEqual([]);
    expect(violations).toEqual([]);
  }, 300_000);

  it('serves every API answer as JSON that a browser will not sniff into HTML', async () => {
    const res = await fetch(`${server.url}/api/blogs?limit=5`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
