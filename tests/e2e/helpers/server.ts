import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** The server process, for reading its memory from /proc. */
  pid: number;
  output: () => string;
  /** Sends a signal and resolves with the exit code. */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the production build (`node server.js`) on a free port with a fresh DATA_DIR, the way
 * an operator would, and waits for /healthz.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  // A caller may choose the port, to name the server's own address in PUBLIC_URL.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'afterglow-e2e-'));
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['server.js'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    pid: child.pid!,
    output: () => log,
    signal(signal) {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The same, on a dialect: a fresh PostgreSQL database for 'postgres' (TEST_DATABASE_URL), which
 * stop() drops again.
 */
export async function startServerOn(dialect: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<RunningServer> {
  if (dialect === 'sqlite') return startServer(env);
  const { createScratchDatabase } = await import('~/db/testing.server');
  const scratch = await createScratchDatabase('postgres');
  const server = await startServer({ ...env, DATABASE_URL: scratch.env.DATABASE_URL! });
  return {
    ...server,
    async stop() {
      await server.stop();
      await scratch.drop();
    },
  };
}
