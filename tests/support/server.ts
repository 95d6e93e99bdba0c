import { afterAll, beforeAll } from 'vitest';
import type { DialectName } from '~/db/schema';
import { createScratchDatabase } from './databases';
import { late } from './late';
import { freePort, type ServerProcess, startServerProcess } from './processes.js';

export { freePort };
export type RunningServer = ServerProcess;

/**
 * Starts the production build (`node server.js`) on a free port with a fresh DATA_DIR, the way
 * an operator would, and waits for /healthz.
 */
export function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServerProcess({ env });
}

/**
 * The same, on a dialect: a fresh PostgreSQL database for 'postgres' (TEST_DATABASE_URL), which
 * stop() drops again.
 */
export async function startServerOn(dialect: DialectName, env: Record<string, string> = {}): Promise<RunningServer> {
  if (dialect === 'sqlite') return startServer(env);
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

/**
 * One server for the enclosing file or describe block: started before its tests, stopped after.
 * `env` may be a function, for values another beforeAll made (a mail server's address).
 */
export function useServer(env: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>) = {}, dialect: DialectName = 'sqlite'): RunningServer {
  const server = late<RunningServer>('the server');
  beforeAll(async () => {
    server.set(await startServerOn(dialect, typeof env === 'function' ? await env() : env));
  });
  afterAll(async () => server.get()?.stop());
  return server.handle;
}
