// `npm run backup [-- --out DIR]`: a consistent, online backup of everything Afterglow keeps.
// SQLite: the online backup API (readers and writers carry on) + local uploads + the generated
// session secret. PostgreSQL: pg_dump (custom format). Objects in S3 are the bucket's business
// (enable versioning there); the manifest lists what was copied so a restore can be verified.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const TABLES = ['user', 'account', 'session', 'blogs', 'comments', 'comment_likes', 'remote_actors', 'likes', 'wishlist', 'subscribers', 'profiles'];

export async function backup({ dataDir, databaseUrl, out }) {
  mkdirSync(out, { recursive: true });
  const manifest = { createdAt: new Date().toISOString(), database: databaseUrl ? 'postgres' : 'sqlite', counts: {} };
  if (databaseUrl) {
    const dump = spawnSync('pg_dump', ['--format=custom', '--no-owner', `--file=${path.join(out, 'afterglow.pgdump')}`, databaseUrl], { encoding: 'utf8' });
    if (dump.status !== 0) throw new Error(`pg_dump failed: ${(dump.stderr || dump.error?.message || '').trim()}`);
  } else {
    const file = path.join(dataDir, 'afterglow.db');
    if (!existsSync(file)) throw new Error(`no database at ${file}`);
    const source = new Database(file, { fileMustExist: true });
    try {
      await source.backup(path.join(out, 'afterglow.db'));
    } finally {
      source.close();
    }
    const copy = new Database(path.join(out, 'afterglow.db'), { readonly: true });
    for (const table of TABLES) {
      try {
        manifest.counts[table] = copy.prepare(`select count(*) as n from "${table}"`).get().n;
      } catch {
        // a table a plugin did not create
      }
    }
    copy.close();
  }
  // Images are written before the row that references them commits, so copying them after the
  // database snapshot includes every image the snapshot references.
  const uploads = path.join(dataDir, 'uploads');
  if (existsSync(uploads)) cpSync(uploads, path.join(out, 'uploads'), { recursive: true });
  const secret = path.join(dataDir, 'session-secret');
  if (existsSync(secret)) cpSync(secret, path.join(out, 'session-secret'));
  writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const dataDir = path.resolve(process.env.DATA_DIR || './data');
  const out = path.resolve(values.out ?? path.join(dataDir, 'backups', new Date().toISOString().replace(/[:.]/g, '-')));
  try {
    const manifest = await backup({ dataDir, databaseUrl: process.env.DATABASE_URL || undefined, out });
    console.log(`backup written to ${out}${Object.keys(manifest.counts).length ? ` (${Object.entries(manifest.counts).map(([t, n]) => `${t} ${n}`).join(', ')})` : ''}`);
  } catch (error) {
    console.error(`afterglow: backup failed: ${error.message}`);
    process.exit(1);
  }
}
