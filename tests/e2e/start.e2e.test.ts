import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '#test/temp-dirs';
import { startServer } from '../support/server';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['server.js'], {
    env: { ...process.env, DATA_DIR: dirs.make('afterglow-start-'), ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

describe('starting and stopping', () => {
  it.each([
    [{ PORT: 'abc' }, /^afterglow: PORT must be a port number/],
    [{ DATABASE_URL: 'nonsense' }, /^afterglow: DATABASE_URL must be a URL like postgres:/],
    [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, /^afterglow: DATABASE_URL cannot be reached/],
  ])('stops on %o with one clear line and no stack trace', (env, line) => {
    const result = run(env);
    expect(result.status).toBe(1);
    const output = (result.stderr + result.stdout).trim();
    expect(output).toMatch(line);
    expect(output.split('\n')).toHaveLength(1);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('finishes in-flight requests on SIGTERM and exits 0', async () => {
    const server = await startServer();
    try {
      const response = await fetch(`${server.url}/allblogs`);
      const exited = server.signal('SIGTERM');
      const body = await response.text();
      expect(response.status).toBe(200);
      expect(body.trimEnd()).toMatch(/<\/html>$/);
      expect(await exited).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('serves the same site on PostgreSQL', async () => {
    const { createScratchDatabase } = await import('#test/databases');
    const scratch = await createScratchDatabase('postgres');
    const server = await startServer({ DATABASE_URL: scratch.env.DATABASE_URL! });
    try {
      const res = await fetch(`${server.url}/readyz`);
      expect(res.status).toBe(200);
      const home = await fetch(server.url);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Where Every Story Shines!');
    } finally {
      await server.stop();
      await scratch.drop();
    }
  });
});
