import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { TEST_ORIGIN } from '#test/test-app';

describeOnDialects('HTTP surface on %s', (t) => {
  it('answers the health and readiness probes', async () => {
    expect(await (await t.request('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.request('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    const res = await t.request('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ message: 'Not found' });
  });

  it('answers a malformed JSON body with a 400 and a message', async () => {
    const res = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": "a@b.c",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: 'Malformed JSON body' });
  });

  it('sets the security headers on every response', async () => {
    for (const path of ['/healthz', '/api/nothing']) {
      const res = await t.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("'unsafe-inline' 'nonce");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
      expect(res.headers.has('x-powered-by')).toBe(false);
    }
    const a = (await t.request('/healthz')).headers.get('content-security-policy');
    const b = (await t.request('/healthz')).headers.get('content-security-policy');
    expect(a).not.toBe(b);
  });

  it('refuses a cross-site state change and a cookie-bearing one without Origin', async () => {
    const foreign = await t.request('/api/auth/sign-up/email', {
      method: 'POST',
      headers: { origin: 'http://evil.test' },
      json: { email: 'x@example.com', password: 'Sunset123', name: 'X' },
    });
    expect(foreign.status).toBe(403);
    const { cookie } = await t.createUser();
    const noOrigin = await t.app.fetch(
      new Request(`${TEST_ORIGIN}/api/auth/sign-out`, { method: 'POST', headers: { cookie } }),
    );
    expect(noOrigin.status).toBe(403);
  });

  it('signs up, resolves the session from the cookie and from a bearer token', async () => {
    const { cookie, token, user } = await t.createUser({ name: 'Dusk Reader' });
    expect(token).not.toBe('');
    for (const headers of [{ cookie }, { authorization: `Bearer ${token}` }] as Record<string, string>[]) {
      const res = await t.request('/api/auth/get-session', { headers });
      const body = (await res.json()) as { user: { email: string } };
      expect(body.user.email).toBe(user.email);
    }
  });

  it('compresses text responses with brotli or gzip as asked', async () => {
    const path = `/api/${'long-unknown-path-'.repeat(80)}`;
    const plain = await t.request(path);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const expected = await plain.json();
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await t.request(path, { headers: { 'accept-encoding': accept } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      const body = decode(Buffer.from(await res.arrayBuffer())).toString('utf8');
      expect(JSON.parse(body)).toEqual(expected);
    }
  });
});
