import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';
import { type LocalSmtpServer, mailText, startSmtpServer } from '../support/smtp-server';

const EVIL = 'evil.example';
const WARNING = 'PUBLIC_URL is not set';

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A request whose Host the caller chooses, as an attacker's script sends it (fetch keeps its own). */
function post(server: RunningServer, path: string, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method: 'POST', path, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Every absolute link in a mail's text. */
const linksIn = (raw: string) => [...mailText(raw).matchAll(/https?:\/\/[^\s"<>]+/g)].map((m) => m[0]);

describe.each(TEST_DIALECTS)('links in mails on %s, PUBLIC_URL unset', (dialect) => {
  let scratch: ScratchDatabase;
  let smtp: LocalSmtpServer;
  let server: RunningServer;
  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    smtp = await startSmtpServer();
    const { LOG_LEVEL: _silent, NODE_ENV: _test, ...env } = scratch.env;
    server = await startServer({ ...env, SMTP_URL: smtp.url, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
    await scratch?.drop();
  });

  it('warns once at start that PUBLIC_URL must be set', () => {
    const lines = server.output().split('\n').filter((line) => line.includes(WARNING));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`http://localhost:${server.port}`);
    console.log(`links: start without PUBLIC_URL → ${lines.length} warning line`);
  });

  it('never takes a reset link from Host, X-Forwarded-Host or the body (API and form)', async () => {
    const victim = `victim-${dialect}-${Date.now()}@example.com`;
    await apiSession(server.url, { email: victim });
    const json = (redirectTo: string) => JSON.stringify({ email: victim, redirectTo });
    const form = new URLSearchParams({ email: victim }).toString();
    const doors: [string, Record<string, string>, string][] = [
      ['/api/auth/request-password-reset', { host: EVIL, origin: `http://${EVIL}`, 'content-type': 'application/json' }, json(`http://${EVIL}/steal`)],
      ['/api/auth/request-password-reset', { host: `127.0.0.1:${server.port}`, origin: server.url, 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'http', 'content-type': 'application/json' }, json(`//${EVIL}/steal`)],
      ['/forgot-password', { host: EVIL, origin: `http://${EVIL}`, 'content-type': 'application/x-www-form-urlencoded' }, form],
      ['/forgot-password', { host: `127.0.0.1:${server.port}`, origin: server.url, 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'http', 'content-type': 'application/x-www-form-urlencoded' }, form],
    ];
    for (const [path, headers, body] of doors) {
      const res = await post(server, path, headers, body);
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(200);
    }
    await expect.poll(() => smtp.mails.filter((m) => m.to.includes(victim)).length, { timeout: 15_000 }).toBe(doors.length);
    const mails = smtp.mails.filter((m) => m.to.includes(victim));
    const links = mails.flatMap((m) => linksIn(m.raw));
    expect(links.length).toBeGreaterThanOrEqual(doors.length);
    const offSite = links.filter((link) => new URL(link).origin !== `http://localhost:${server.port}`);
    expect(offSite).toEqual([]);
    for (const link of links) expect(new URL(link).searchParams.get('callbackURL')).toBe('/reset-password');
    expect(mails.map((m) => mailText(m.raw)).join('\n')).not.toContain(EVIL);

    // Followed, the link lands on this site's reset page with the token, nowhere else.
    const follow = await fetch(links.at(-1)!.replace(`http://localhost:${server.port}`, server.url), { redirect: 'manual' });
    expect(follow.status).toBe(302);
    const landing = new URL(follow.headers.get('location')!, server.url);
    expect(landing.origin).toBe(server.url);
    expect(landing.pathname).toBe('/reset-password');
    expect(landing.searchParams.get('token')).toBeTruthy();
    console.log(`links: reset mail via API and form with Host: ${EVIL} and X-Forwarded-Host → ${offSite.length} links off-site / ${mails.length} mails (${dialect})`);
  });
});

describe('links in mails with PUBLIC_URL set', () => {
  let smtp: LocalSmtpServer;
  let server: RunningServer;
  const PUBLIC_URL = 'https://blog.example.org';
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer({ SMTP_URL: smtp.url, PUBLIC_URL });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.stop();
  });

  it('start without a warning, and mail links on PUBLIC_URL whatever the Host', async () => {
    expect(server.output()).not.toContain(WARNING);
    const victim = `victim-public-${Date.now()}@example.com`;
    // Signed up as the site's own origin: with PUBLIC_URL, only that origin is trusted.
    const signUp = await post(server, '/api/auth/sign-up/email', { host: EVIL, origin: PUBLIC_URL, 'content-type': 'application/json' }, JSON.stringify({ email: victim, name: 'V', password: 'Sunset123' }));
    expect(signUp.status).toBe(200);
    const ask = await post(server, '/api/auth/request-password-reset', { host: EVIL, origin: PUBLIC_URL, 'x-forwarded-host': EVIL, 'content-type': 'application/json' }, JSON.stringify({ email: victim }));
    expect(ask.status).toBe(200);
    const mail = await smtp.waitForMail(victim);
    const links = linksIn(mail.raw);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(new URL(link).origin).toBe(PUBLIC_URL);
    console.log(`links: PUBLIC_URL set → 0 warning lines; ${links.length} of ${links.length} links on ${PUBLIC_URL} with Host: ${EVIL}`);
  });
});
