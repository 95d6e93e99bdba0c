import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '~/lib/texts/messages';
import { freePort, type RunningServer, startServer } from '../support/server';

// A throwaway PostgreSQL cluster of our own, so stopping it disturbs nobody else's database.
const CLUSTER = `agfaults${process.pid}`;
const version = spawnSync('sh', ['-c', 'ls /etc/postgresql 2>/dev/null | sort -n | tail -n1'], { encoding: 'utf8' }).stdout.trim();
const canManageClusters = Boolean(version) && spawnSync('sh', ['-c', 'command -v pg_createcluster']).status === 0 && process.getuid?.() === 0;
if (!canManageClusters) console.log('PostgreSQL restart fault test skipped: needs root and Debian\'s pg_createcluster.');

const pgctl = (action: string, ...extra: string[]) => {
  const r = spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, CLUSTER, action, ...extra], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pg_ctlcluster ${action}: ${r.stderr}`);
};

// An unknown writer is a 404 while the database answers: its loader goes through the page
// helpers (app/lib/page/page-errors.server.ts), so with the database away it is the 503 page.
const UNKNOWN_AUTHOR = '/authors/no-such-writer';
const answered = (s: { path: string; status: number }) => s.status === (s.path === UNKNOWN_AUTHOR ? 404 : 200);

describe.runIf(canManageClusters)('PostgreSQL going away under load', () => {
  let server: RunningServer;
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    const created = spawnSync('pg_createcluster', [version, CLUSTER, '-p', String(port), '--start', '--', '--auth=trust'], { encoding: 'utf8' });
    if (created.status !== 0) throw new Error(`pg_createcluster: ${created.stderr}`);
    server = await startServer({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    spawnSync('pg_dropcluster', ['--stop', version, CLUSTER]);
  });

  it('answers 503 while it is down and recovers by itself within 5 s of its return', async () => {
    // `sent` and `at` (answered): a request sent before the stop may still be answered after it.
    const samples: { sent: number; at: number; path: string; status: number; json: boolean; retryAfter: boolean; unavailablePage: boolean }[] = [];
    const started = Date.now();
    let running = true;
    const load = (async () => {
      while (running) {
        await Promise.all(
          ['/api/blogs', '/allblogs', UNKNOWN_AUTHOR].map(async (path) => {
            const sent = Date.now() - started;
            try {
              const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(8000) });
              const json = (res.headers.get('content-type') ?? '').includes('application/json');
              const unavailablePage = (await res.text()).includes(MESSAGES.unavailable);
              samples.push({ sent, at: Date.now() - started, path, status: res.status, json, retryAfter: res.headers.has('Retry-After'), unavailablePage });
            } catch {
              samples.push({ sent, at: Date.now() - started, path, status: 0, json: false, retryAfter: false, unavailablePage: false });
            }
          }),
        );
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    await new Promise((r) => setTimeout(r, 1000));
    const stopping = Date.now() - started;
    pgctl('stop', '-m', 'immediate');
    // From here PostgreSQL is gone (pg_ctlcluster returns once it has stopped).
    const downAt = Date.now() - started;
    await new Promise((r) => setTimeout(r, 2500));
    pgctl('start');
    const backAt = Date.now() - started;
    await new Promise((r) => setTimeout(r, 6000));
    running = false;
    await load;

    const before = samples.filter((s) => s.at < stopping);
    const during = samples.filter((s) => s.sent > downAt && s.at < backAt);
    const lastFailure = Math.max(...samples.filter((s) => !answered(s)).map((s) => s.at));
    const recoverySeconds = (lastFailure - backAt) / 1000;
    console.log(
      `faults: postgres stopped for ${((backAt - downAt) / 1000).toFixed(1)} s under load: ${during.length} requests meanwhile, ` +
        `${during.filter((s) => s.status === 503).length} answered 503, ${during.filter((s) => s.status !== 503).length} otherwise; ` +
        `recovered ${Math.max(0, recoverySeconds).toFixed(2)} s after it came back`,
    );
    expect(before.every(answered)).toBe(true);
    expect(during.length).toBeGreaterThan(5);
    expect(during.filter((s) => s.status !== 503)).toEqual([]);
    expect(during.filter((s) => s.path.startsWith('/api/')).every((s) => s.json)).toBe(true);
    expect(during.every((s) => s.retryAfter)).toBe(true);
    // The root error boundary's 503 page, where the failure reached it as a 503.
    const authorDuring = during.filter((s) => s.path === UNKNOWN_AUTHOR);
    expect(authorDuring.length).toBeGreaterThan(0);
    expect(authorDuring.every((s) => s.unavailablePage)).toBe(true);
    expect(recoverySeconds).toBeLessThan(5);
    const after = samples.filter((s) => s.at > lastFailure);
    expect(after.length).toBeGreaterThan(5);
    expect(server.output()).not.toMatch(/Unhandled 'error' event/);
  });
});
