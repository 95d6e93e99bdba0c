import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DialectName } from './schema';

/**
 * The dialects every data-layer test runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL
 * is set (tests/setup/databases.global.ts says so when it is not).
 */
export const TEST_DIALECTS: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface ScratchDatabase {
  dialect: DialectName;
  /** Environment for loadConfig: a fresh DATA_DIR, and a fresh PostgreSQL database when asked. */
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/** A brand-new empty database of the given dialect, dropped again by `drop()`. */
export async function createScratchDatabase(dialect: DialectName): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-test-'));
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', RATE_LIMITS: 'off' };
  if (dialect === 'sqlite') {
    return { dialect, env, dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `afterglow_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  return {
    dialect,
    env,
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
