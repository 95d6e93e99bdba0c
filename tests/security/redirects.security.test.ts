import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';

/** Return targets that leave the site, raw or once normalised (the audit's probes first). */
const VARIANTS = [
  '/.//evil.example/x',
  '/%2e//evil.example/x',
  '/a/..//evil.example/x',
  '/./\\evil.example/x',
  '/.%2e//evil.example/x',
  '/%2E%2E//evil.example/x',
  '/a/b/../..//evil.example/x',
  '/./\\/evil.example/x',
  '//evil.example/x',
  '/\\evil.example/x',
  '/\t/evil.example/x',
  '/\\\\evil.example/x',
  '///evil.example/x',
  'https://evil.example/x',
  'http:evil.example',
  'javascript:alert(1)',
  '//',
];

describe('return targets (redirectTo)', () => {
  let server: RunningServer;
  let cookie: string;
  let password: string;
  let email: string;
  beforeAll(async () => {
    server = await startServer();
    email = `redirects-${randomUUID()}@example.com`;
    password = 'Sunset123';
    ({ cookie } = await apiSession(server.url, { email, password }));
  });
  afterAll(async () => server?.stop());

  /** Where a Location header sends the browser from this site. */
  const destination = (res: Response) => new URL(res.headers.get('location')!, server.url);

  it('never leave the site, after a social sign-in or a password sign-in', async () => {
    const offSite: string[] = [];
    let answers = 0;
    for (const target of VARIANTS) {
      const social = await fetch(`${server.url}/login?${new URLSearchParams({ social: 'done', redirectTo: target })}`, { headers: { cookie }, redirect: 'manual' });
      const form = await fetch(`${server.url}/login?${new URLSearchParams({ redirectTo: target })}`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }),
        redirect: 'manual',
      });
      for (const [door, res] of [['social', social], ['form', form]] as const) {
        answers++;
        expect(res.status, `${door} ${JSON.stringify(target)}`).toBe(302);
        const location = res.headers.get('location')!;
        if (destination(res).origin !== server.url || location.startsWith('//') || location.startsWith('/\\')) offSite.push(`${door} ${JSON.stringify(target)} → ${location}`);
      }
    }
    expect(offSite).toEqual([]);
    console.log(`redirects: ${offSite.length} off-site / ${VARIANTS.length} variants × 2 doors (social sign-in return, password sign-in form) = ${answers} answers`);
  });
});
