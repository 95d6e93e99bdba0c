// `npm run restore -- --from DIR [--force]`: puts a backup made by `npm run backup` back into
// DATA_DIR (and DATABASE_URL for PostgreSQL). Refuses to overwrite existing data without --force.
// Stop the server first: a restore replaces the database underneath it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export function restore({ from, dataDir, databaseUrl, force = false }) {
  const manifestFile = path.join(from, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${from} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  mkdirSync(dataDir, { recursive: true });
  if (manifest.database === 'postgres') {
    if (!databaseUrl) throw new Error('this backup is of PostgreSQL: set DATABASE_URL to the database to restore into');
    const args = ['--no-owner', '--exit-on-error', ...(force ? ['--clean', '--if-exists'] : []), `--dbname=${databaseUrl}`, path.join(from, 'afterglow.pgdump')];
    const result = spawnSync('pg_restore', args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pg_restore failed: ${(result.stderr || '').trim()}`);
  } else {
    const target = path.join(dataDir, 'afterglow.db');
    if (existsSync(target) && !force) throw new Error(`${target} exists: pass --force to replace it`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });
    cpSync(path.join(from, 'afterglow.db'), target);
  }
  if (existsSync(path.join(from, 'uploads'))) cpSync(path.join(from, 'uploads'), path.join(dataDir, 'uploads'), { recursive: true, force: true });
  if (existsSync(path.join(from, 'session-secret'))) cpSync(path.join(from, 'session-secret'), path.join(dataDir, 'session-secret'));
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { from: { type: 'string' }, force: { type: 'boolean', default: false } } });
  if (!values.from) {
    console.error('afterglow: usage: npm run restore -- --from <backup folder> [--force]');
    process.exit(1);
  }
  try {
    const dataDir = path.resolve(process.env.DATA_DIR || './data');
    restore({ from: path.resolve(values.from), dataDir, databaseUrl: process.env.DATABASE_URL || undefined, force: values.force });
    console.log(`restored ${values.from} into ${dataDir}`);
  } catch (error) {
    console.error(`afterglow: restore failed: ${error.message}`);
    process.exit(1);
  }
}
