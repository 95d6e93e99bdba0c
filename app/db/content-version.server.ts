import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DatabaseHandle } from './kysely.server';
import type { Database } from './schema';

/**
 * Where what pages show stands: the database's triggers bump `content` on any blog or comment
 * change, `views` on view counts and `sessions` when a session or a user's shown details change
 * (migrations 2026-11-22T18-00-00_content-versions and 2026-11-25T10-00-00_content-version-stripes:
 * a scope's version is the sum of its stripes).
 * Shared by every instance on the same database, so a cache keyed by them is right on all.
 */
export interface ContentVersions {
  content: number;
  views: number;
  /** Sessions ended or changed, or a user's name, email or photo changed. */
  sessions: number;
}

/** Inside a transaction (`db` may be one), through the query builder. */
export async function readContentVersions(db: Kysely<Database>): Promise<ContentVersions> {
  const rows = await db
    .selectFrom('content_version_stripes')
    .select((eb) => ['scope', eb.fn.sum<number | string>('version').as('version')])
    .groupBy('scope')
    .execute();
  return toVersions(rows);
}

const VERSIONS_SQL = 'select scope, sum(version) as version from content_version_stripes group by scope';
const statements = new WeakMap<SQLite.Database, SQLite.Statement>();

/**
 * The same read for the hot path, once per request (page cache, session cache). On SQLite it
 * runs one prepared statement on the handle itself, about 6 µs instead of 40 through the query
 * builder. Only while no transaction is open on that handle: one in the middle of a write may
 * hold counters it has not committed; then the builder's path waits its turn. On PostgreSQL it
 * is a named prepared statement on the pool, outside any transaction.
 */
export function readCurrentVersions(database: DatabaseHandle): ContentVersions | Promise<ContentVersions> {
  const { sqlite, pgPool } = database;
  if (pgPool) return readFromPool(pgPool);
  if (!sqlite || sqlite.inTransaction) return readContentVersions(database.db);
  let statement = statements.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare(VERSIONS_SQL);
    statements.set(sqlite, statement);
  }
  return toVersions(statement.all() as { scope: keyof ContentVersions; version: number | bigint }[]);
}

/** PostgreSQL: a named statement, parsed and planned once per connection; each read is committed. */
async function readFromPool(pool: pg.Pool): Promise<ContentVersions> {
  const result = await pool.query<[keyof ContentVersions, string]>({ name: 'afterglow_content_versions', text: VERSIONS_SQL, rowMode: 'array' });
  return toVersions(result.rows.map(([scope, version]) => ({ scope, version })));
}

function toVersions(rows: { scope: keyof ContentVersions; version: number | bigint | string }[]): ContentVersions {
  const versions: ContentVersions = { content: 0, views: 0, sessions: 0 };
  for (const row of rows) versions[row.scope] = Number(row.version);
  return versions;
}
