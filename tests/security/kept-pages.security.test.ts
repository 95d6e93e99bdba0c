import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { signUp } from '../support/auth';
import { openBrowser, waitForHydration, type Browser } from '../support/browser';
import { useServer } from '../support/server';

const CLIENT_ID = 'client-chosen-request-id-0123';

/** The inline scripts of a page and the CSP hash each needs. */
const inlineScriptHashes = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc\s*=/i.test(attributes!))
    .map(([, , text]) => `'sha256-${createHash('sha256').update(text!, 'utf8').digest('base64')}'`);

/**
 * Pages kept for anonymous readers (docs/decisions/019) hold nothing a client sent, and their
 * copies share no CSP nonce: a kept page is sent with a policy naming its inline scripts' hashes
 * (audit finding 10). The page, its data request and a public API read, on both databases.
 */
describe.each(TEST_DIALECTS)('pages kept for anonymous readers, and a signed-in reader’s, on %s', (dialect) => {
  const server = useServer({}, dialect);
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());

  it.each(['/allblogs?kept=1', '/allblogs.data?kept=1', '/api/featuredblogs?kept=1', '/?kept=1'])('%s keeps no client request id and no nonce', async (path) => {
    const read = () => fetch(`${server.url}${path}`, { headers: { 'x-request-id': CLIENT_ID } });
    const first = await read();
    const firstBody = await first.text();
    const second = await read();
    const secondBody = await second.text();
    expect([first.headers.get('x-cache'), second.headers.get('x-cache')]).toEqual(['MISS', 'HIT']);
    for (const [res, body] of [[first, firstBody], [second, secondBody]] as const) {
      expect(body).not.toContain(CLIENT_ID);
      expect(res.headers.get('x-request-id')).not.toBe(CLIENT_ID);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).not.toContain("'nonce-");
      expect(body).not.toMatch(/\snonce="/);
      if (body.startsWith('<!DOCTYPE')) {
        const scripts = inlineScriptHashes(body);
        expect(scripts.length).toBeGreaterThan(0);
        const sources = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
        expect(sources).toContain("'self'");
        for (const hash of scripts) expect(sources).toContain(hash);
      }
    }
    // A page that is not kept still gets a nonce of its own per answer.
    const login = await fetch(`${server.url}/login`);
    expect(login.headers.get('content-security-policy')).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  });

  it('a kept page runs in a browser under its policy (first copy and a kept one)', async () => {
    browser ??= await openBrowser();
    const { page, errors } = browser;
    for (const state of ['MISS', 'HIT']) {
      const res = await page.goto(`${server.url}/allblogs?browser=${dialect}`);
      expect(res?.headers()['x-cache']).toBe(state);
      await waitForHydration(page);
    }
    expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
  });

  // A signed-in reader's page sent again is the same bytes for every answer too (docs/decisions/096).
  it('a signed-in reader’s kept page runs in a browser under its policy (rendered, then sent again)', async () => {
    const signedIn = await openBrowser();
    try {
      await signUp(signedIn.context, server.url);
      const { page, errors } = signedIn;
      const policies: string[] = [];
      for (const render of ['new', 'again']) {
        const res = await page.goto(`${server.url}/allblogs?signed-in=${dialect}`);
        expect(res?.headers()['x-render']).toBe(render);
        policies.push(res?.headers()['content-security-policy'] ?? '');
        const html = (await res?.text()) ?? '';
        if (render === 'again') {
          expect(html).not.toMatch(/\snonce="/);
          const sources = /script-src ([^;]+)/.exec(policies[1]!)![1]!.split(' ');
          expect(sources.sort()).toEqual(["'self'", ...new Set(inlineScriptHashes(html))].sort());
        }
        await waitForHydration(page);
      }
      expect(policies[0]).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
      expect(policies[1]).not.toContain("'nonce-");
      expect(errors.filter((e) => /Content Security Policy|Refused/i.test(e))).toEqual([]);
    } finally {
      await signedIn.close();
    }
  });
});
