import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nextNonce, securityHeaders } from './security-headers.server';

const POPUP_POLICY = "default-src 'none'; script-src 'sha256-abc='; base-uri 'none'";

describe('a response’s own Content-Security-Policy', () => {
  const app = new Hono();
  app.use(securityHeaders({ https: false, imageOrigins: [], dev: false }));
  const own = (policy: string) => () => new Response('<p>page</p>', { headers: { 'content-type': 'text/html', 'content-security-policy': policy } });
  app.get('/api/auth/callback/weak', own("script-src 'unsafe-inline'"));
  app.get('/api/auth/callback/:id', own(POPUP_POLICY));
  app.post('/api/auth/callback/:id', own(POPUP_POLICY));
  app.get('/api/auth/oauth2/callback/:id', own(POPUP_POLICY));
  app.get('/api/auth/callback/:id/more', own(POPUP_POLICY));
  app.get('/api/auth/other', own(POPUP_POLICY));
  const policy = async (method: string, path: string) => (await app.request(path, { method })).headers.get('content-security-policy');

  it('is kept only on the sign-in popup’s callback page, with framing still refused', async () => {
    expect(await policy('GET', '/api/auth/callback/oidc')).toBe(`${POPUP_POLICY}; frame-ancestors 'none'`);
    expect(await policy('GET', '/api/auth/oauth2/callback/oidc')).toBe(`${POPUP_POLICY}; frame-ancestors 'none'`);
  });

  it('is replaced by ours anywhere else, or when it is not the strict one', async () => {
    for (const [method, path] of [
      ['POST', '/api/auth/callback/oidc'],
      ['GET', '/api/auth/callback/oidc/more'],
      ['GET', '/api/auth/other'],
      ['GET', '/api/auth/callback/weak'],
    ]) {
      const csp = await policy(method!, path!);
      expect(csp, `${method} ${path}`).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
      expect(csp).toContain("frame-ancestors 'none'");
    }
  });

  it('lets a page frame only the two video players, and play media from https (docs/decisions/063)', async () => {
    const csp = (await policy('GET', '/api/auth/other'))!.split('; ');
    expect(csp).toContain('frame-src https://www.youtube-nocookie.com https://player.vimeo.com');
    expect(csp).toContain("media-src 'self' https:");
    expect(csp).toContain("object-src 'none'");
  });
});

describe('cookies on https', () => {
  const app = (https: boolean) => {
    const hono = new Hono();
    hono.use(securityHeaders({ https, imageOrigins: [], dev: false }));
    hono.get('/', () => {
      const headers = new Headers();
      headers.append('Set-Cookie', 'afterglow.flash=abc; Path=/; HttpOnly; SameSite=Lax');
      headers.append('Set-Cookie', '__Secure-afterglow.session_token=x; Path=/; HttpOnly; Secure; SameSite=Lax');
      return new Response(null, { status: 302, headers });
    });
    return hono;
  };

  it('are all Secure, once each', async () => {
    const cookies = (await app(true).request('/')).headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    for (const cookie of cookies) expect(cookie.match(/;\s*Secure/gi)).toHaveLength(1);
  });

  it('are left as they are on http', async () => {
    expect((await app(false).request('/')).headers.getSetCookie()[0]).toBe('afterglow.flash=abc; Path=/; HttpOnly; SameSite=Lax');
  });
});

describe('the CSP nonce', () => {
  it('is 128 bits, and no two of a thousand (past a refill of the pool) are the same', () => {
    const nonces = Array.from({ length: 1000 }, nextNonce);
    expect(new Set(nonces).size).toBe(1000);
    for (const nonce of nonces) expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
  });
});
