import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

/** A raw request, for methods fetch refuses to send (TRACE) and paths it would normalise. */
function raw(method: string, path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const CHECKS: [string, (h: Headers, status: number) => boolean][] = [
  // A nonce per answer; a page kept for anonymous readers names its inline scripts' hashes instead (docs/decisions/019).
  ['CSP with a nonce (or, kept, hashes) for scripts', (h) => /script-src (?:'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'|'self'(?: 'sha256-[A-Za-z0-9+/=]{44}')*)(?:;|$)/.test(h.get('content-security-policy') ?? '')],
  ["CSP object-src 'none'", (h) => (h.get('content-security-policy') ?? '').includes("object-src 'none'")],
  ["CSP base-uri 'none'", (h) => (h.get('content-security-policy') ?? '').includes("base-uri 'none'")],
  ["CSP frame-ancestors 'none'", (h) => (h.get('content-security-policy') ?? '').includes("frame-ancestors 'none'")],
  ['no unsafe-inline scripts', (h) => !/script-src[^;]*'unsafe-inline'/.test(h.get('content-security-policy') ?? '')],
  ['nosniff', (h) => h.get('x-content-type-options') === 'nosniff'],
  ['Referrer-Policy', (h) => h.get('referrer-policy') === 'strict-origin-when-cross-origin'],
  ['no X-Powered-By', (h) => !h.has('x-powered-by')],
  ['a request id', (h) => /^[\w-]{8,}$/.test(h.get('x-request-id') ?? '')],
  ['charset on text types', (h) => {
    const type = h.get('content-type') ?? '';
    return !/^(text\/|application\/json)/.test(type) || /charset=utf-8/i.test(type) || type.startsWith('application/json');
  }],
];

describe('security headers', () => {
  it('are on every class of route', async () => {
    const html = await (await fetch(server.url)).text();
    const css = html.match(/href="(\/assets\/[^"]+\.css)"/)![1]!;
    const classes: Record<string, string> = {
      page: '/',
      'page 404': '/no/such/page',
      'API 404': '/api/no-such-route',
      'API health': '/healthz',
      asset: css,
      'public file': '/favicon.svg',
      redirect: '/featureBlog',
      'protected redirect': '/addBlog',
    };
    let missing = 0;
    let checked = 0;
    for (const [name, path] of Object.entries(classes)) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      for (const [check, ok] of CHECKS) {
        checked++;
        if (!ok(res.headers, res.status)) {
          missing++;
          console.log(`missing on ${name} (${path}): ${check}`);
        }
      }
    }
    console.log(`headers: ${Object.keys(classes).length} route classes × ${CHECKS.length} checks = ${checked}, ${missing} missing`);
    expect(missing).toBe(0);
  });

  it('are on HEAD answers too (audit item 10)', async () => {
    const paths = ['/api/blogs', '/api/no-such-route', '/api/openapi.json', '/api/auth/get-session', '/healthz', '/', '/no/such/page'];
    let missing = 0;
    let checked = 0;
    for (const path of paths) {
      const res = await fetch(`${server.url}${path}`, { method: 'HEAD', redirect: 'manual' });
      for (const [check, ok] of CHECKS) {
        checked++;
        if (!ok(res.headers, res.status)) {
          missing++;
          console.log(`missing on HEAD ${path}: ${check}`);
        }
      }
    }
    console.log(`headers: HEAD on ${paths.length} paths (${paths.filter((p) => p.startsWith('/api/')).length} under /api) × ${CHECKS.length} checks = ${checked}, ${missing} missing`);
    expect(missing).toBe(0);
  });

  it('keep answers that carry a credential out of every cache (audit item 10)', async () => {
    const email = `no-store-${Date.now()}@example.com`;
    const { cookie } = await apiSession(server.url, { email });
    const post = (path: string, json: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': 'application/json' }, body: JSON.stringify(json) });
    const answers: [string, Response][] = [
      ['POST /api/jwt', await post('/api/jwt', { email })],
      ['POST /api/users/jwt', await post('/api/users/jwt', { email })],
      ['POST /api/auth/two-factor/enable', await post('/api/auth/two-factor/enable', { password: 'Sunset123' })],
      ['GET /api/auth/get-session', await fetch(`${server.url}/api/auth/get-session`, { headers: { cookie } })],
    ];
    // The profile page's form shows the same secret and codes, with and without JavaScript.
    for (const path of ['/profile', '/profile.data']) {
      const body = new URLSearchParams({ intent: 'enable', password: 'Sunset123' });
      const headers = { cookie, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' };
      answers.push([`POST ${path} (enable two-factor)`, await fetch(`${server.url}${path}`, { method: 'POST', headers, body })]);
    }
    const stored = [];
    for (const [name, res] of answers) {
      expect(res.status, name).toBe(200);
      const body = await res.text();
      expect(body, name).toMatch(/token|totpURI|backupCodes|otpauth|session/);
      if (res.headers.get('cache-control') !== 'no-store') stored.push(`${name}: ${res.headers.get('cache-control')}`);
    }
    expect(stored).toEqual([]);
    console.log(`headers: Cache-Control: no-store on ${answers.length - stored.length} of ${answers.length} answers carrying a token, a TOTP secret or recovery codes`);
  });

  it('refuses TRACE and TRACK', async () => {
    for (const method of ['TRACE', 'TRACK']) {
      const res = await raw(method, '/');
      expect(res.status, method).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('cookie');
    }
  });

  it.each(['/.git/config', '/.git/HEAD', '/.env', '/package.json', '/server.js', '/build/server/index.js', '/..%2fpackage.json', '/assets/..%2f..%2fserver%2findex.js'])(
    'serves nothing private at %s',
    async (path) => {
      const res = await raw('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).not.toMatch(/"dependencies"|createServer|\[core\]|SESSION_SECRET/);
    },
  );

  it('ships no source maps', async () => {
    const html = await (await fetch(server.url)).text();
    const scripts = [...html.matchAll(/(\/assets\/[^"]+\.js)/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts.slice(0, 5)) {
      expect((await fetch(`${server.url}${script}.map`)).status).toBe(404);
      expect(await (await fetch(`${server.url}${script}`)).text()).not.toContain('sourceMappingURL');
    }
  });
});
