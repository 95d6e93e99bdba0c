import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DialectName } from '~/db/schema';
import { scratchPostgres } from './processes.js';

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
  // No spam hold unless a test asks for one: every test account is minutes old (docs/decisions/029).
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', RATE_LIMITS: 'off', SPAM_HOLD_DAYS: '0' };
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') return { dialect, env, dataDir, drop: async () => removeDir() };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const database = await scratchPostgres(adminUrl);
  env.DATABASE_URL = database.url;
  return {
    dialect,
    env,
    dataDir,
    async drop() {
      await database.drop();
      removeDir();
    },
  };
}
