// `npm test`: lint (the layering rule), build once (the browser tests run the production
// server), then every test, on SQLite and, where PostgreSQL answers, on PostgreSQL too.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRuntime } from './runtime.js';

ensureRuntime();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (args, env = process.env) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

// PostgreSQL: TEST_DATABASE_URL names it; unset, a local server with the usual trust set-up
// (postgres@127.0.0.1:5432) is used when it answers; `TEST_DATABASE_URL=off` runs SQLite only.
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
async function answers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
const env = { ...process.env };
if (env.TEST_DATABASE_URL === 'off') delete env.TEST_DATABASE_URL;
else if (!env.TEST_DATABASE_URL && (await answers(LOCAL_POSTGRES))) {
  env.TEST_DATABASE_URL = LOCAL_POSTGRES;
  console.log(`npm test: PostgreSQL answers at ${LOCAL_POSTGRES.replace(/^postgres:\/\/[^@]*@/, '')}; its half of the suite runs too.`);
}

step(['node_modules/eslint/bin/eslint.js', '.']);
step(['scripts/build.js']);
step(['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], env);
