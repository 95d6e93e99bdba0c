import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitUntilUp } from '../support/processes.js';

/**
 * `npm start` serves with glibc's MALLOC_ARENA_MAX=2 (docs/decisions/087): scripts/start.js
 * becomes itself again with the variable set, so the process that answers is the one started,
 * with its flags, and an operator's own value wins. Read from the serving process's
 * /proc/<pid>/environ, which is the environment its program was started with (Linux only).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=128'];
let running: { child: ChildProcess; dataDir: string } | null = null;

async function npmStart(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-start-'));
  const { MALLOC_ARENA_MAX: _ignored, ...inherited } = process.env;
  let log = '';
  const child = spawn(process.execPath, [...FLAGS, 'scripts/start.js'], {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  running = { child, dataDir };
  await waitUntilUp(`http://127.0.0.1:${port}/healthz`, { child, output: () => log });
  return child;
}

const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
const argsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

describe.skipIf(process.platform !== 'linux')('npm start and the allocator', () => {
  afterEach(async () => {
    if (!running) return;
    const { child, dataDir } = running;
    running = null;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from the process it started, with MALLOC_ARENA_MAX=2 and the same flags', async () => {
    const child = await npmStart({});
    expect(child.exitCode).toBeNull();
    expect(environOf(child.pid!)).toContain('MALLOC_ARENA_MAX=2');
    const args = argsOf(child.pid!);
    expect(args.slice(1)).toEqual([...FLAGS, expect.stringMatching(/scripts\/start\.js$/)]);
  });

  it("leaves an operator's own value", async () => {
    const child = await npmStart({ MALLOC_ARENA_MAX: '4' });
    const environ = environOf(child.pid!);
    expect(environ).toContain('MALLOC_ARENA_MAX=4');
    expect(environ).not.toContain('MALLOC_ARENA_MAX=2');
  });
});
