// The one way a test or an operator script finds a free port, starts the production server and
// waits for it (decision 035). Plain JavaScript, so scripts/ (scan, lighthouse, bench) use it as
// the tests do; its types are in processes.d.ts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A port nothing listens on at 127.0.0.1 right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * How long a server may take to answer after it was spawned. A fresh one takes 2–3 s on a busy
 * two-core machine (at load 10: Node's start and the build's import about 1 s, then every
 * migration on its fresh database, 1.7 s on PostgreSQL); under a full test run's load the same
 * start has passed 30 s. A start that never comes still fails, naming what the server printed.
 */
export const START_TIMEOUT_MS = 90_000;

/**
 * Polls `url` until it answers as `accept` wants (2xx by default); fails at once when `child`
 * exits and after `timeoutMs`, with `output()` in the message. A server that takes a connection
 * and never answers is cut off at the deadline too.
 */
export async function waitUntilUp(url, { child, timeoutMs = START_TIMEOUT_MS, intervalMs = 100, accept = (res) => res.ok, output = () => '' } = {}) {
  const started = Date.now();
  const deadline = started + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) after ${Date.now() - started} ms:\n${output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      const ok = accept(res);
      await res.arrayBuffer();
      if (ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs} ms of the server's start; it printed:\n${output() || '(nothing)'}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Starts the production build (`node server.js`) on 127.0.0.1 the way an operator would: a free
 * port (or env.PORT), a fresh DATA_DIR (or env.DATA_DIR, which stop() then leaves), rate limits
 * off unless env says otherwise; resolves once `waitPath` answers.
 */
export async function startServerProcess({ env = {}, nodeFlags = [], waitPath = '/healthz', accept, intervalMs, quiet = false } = {}) {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'afterglow-server-'));
  let log = '';
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, 'server.js'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', SPAM_HOLD_DAYS: '0', ...env },
    stdio: ['ignore', quiet ? 'ignore' : 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  child.once('exit', (code, signal) => (log += `\n[server exited: code ${code}, signal ${signal}]\n`));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(`${url}${waitPath}`, { child, accept, intervalMs, output: () => log });
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    dataDir,
    pid: child.pid,
    child,
    startMs: performance.now() - started,
    output: () => log,
    signal(signal) {
      const exited = new Promise((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh PostgreSQL database beside `adminUrl`'s, and how to drop it again. */
export async function scratchPostgres(adminUrl, prefix = 'afterglow_test') {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
