import { createRequire } from 'node:module';
import SQLite from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  type Driver,
  type UnknownRow,
  sql,
} from 'kysely';
import type pg from 'pg';
import type { Database, DialectName } from './schema';
import { SqliteChanges } from './sqlite-changes.server';
import { VersionListener } from './version-listener.server';
import type { ViewerChanges } from './viewer-writes.server';

/**
 * The one place where the two drivers are made to agree (docs/decisions/002-sqlite-and-postgres.md):
 * - timestamps come back as ISO strings (pg returns Date, better-sqlite3 the stored text);
 * - 64-bit integers (pg's count(*)) come back as numbers, through the pool's own type parser;
 * - values we write are strings and numbers only: better-sqlite3 binds no booleans or Dates.
 */
class NormalizeResultsPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const row of args.result.rows) {
      for (const key in row) {
        const value = row[key];
        if (value instanceof Date) row[key] = value.toISOString();
      }
    }
    return args.result;
  }
}

/**
 * pg is loaded only when DATABASE_URL asks for it: its modules were a fifth of what a SQLite
 * server loads before its first answer (cold start, docs/decisions/032).
 */
const loadPg = () => createRequire(import.meta.url)('pg') as typeof pg;

const INT8_OID = 20;
const pgTypes = (driver: typeof pg) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : driver.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
});

export interface DatabaseHandle {
  /** The application's query builder, with normalised results. */
  db: Kysely<Database>;
  /** The same connection without our plugin, for better-auth, which normalises on its own. */
  authDb: Kysely<any>;
  dialect: DialectName;
  /**
   * SQLite's own handle, for the few synchronous reads that must cost microseconds rather than
   * a trip through the query builder (content-version.server.ts). Absent on PostgreSQL.
   */
  sqlite?: SQLite.Database;
  /** SQLite: what this process knows of changes without asking the database (decision 059). */
  sqliteChanges?: SqliteChanges;
  /** PostgreSQL's pool, for the same few reads as named prepared statements. Absent on SQLite. */
  pgPool?: pg.Pool;
  /**
   * PostgreSQL: the versions this instance keeps from LISTEN (docs/decisions/044), told of every
   * write made through `db` or `authDb`. Started by the server (`start`), closed by `close()`.
   */
  versionListener?: VersionListener;
  /**
   * What this instance has heard of writes a signed-in reader's kept page may show (decision
   * 076): SQLite's change watch's, PostgreSQL's version listener's.
   */
  viewerChanges: ViewerChanges;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** `postgres://…` for PostgreSQL; otherwise SQLite at `sqlitePath`. */
  databaseUrl?: string;
  sqlitePath?: string;
  poolSize?: number;
}

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const driver = loadPg();
    const pool = new driver.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      types: pgTypes(driver),
      connectionTimeoutMillis: 5_000,
    });
    // A connection's error (e.g. the server restarting) must not crash the process: the pool
    // handles idle clients' errors; a checked-out client between two queries has no listener of
    // its own, so each gets one. The query in flight fails (503); the broken client is dropped.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const versionListener = new VersionListener(
      () => new driver.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 5_000, keepAlive: true, application_name: 'afterglow-versions' }),
    );
    const handle = wrap(new Kysely<any>({ dialect: new PostgresDialectNotingWrites({ pool }, () => versionListener.noteWrite()) }), 'postgres');
    const closeKysely = handle.close;
    return {
      ...handle,
      pgPool: pool,
      versionListener,
      viewerChanges: versionListener.viewer,
      async close() {
        await versionListener.close();
        await closeKysely();
      },
    };
  }
  const file = options.sqlitePath ?? ':memory:';
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL + NORMAL survives a killed process (the WAL is on disk); only an OS crash can roll
  // back the last commits. See docs/decisions/002-sqlite-and-postgres.md.
  sqlite.pragma('synchronous = NORMAL');
  // 32 MB of page cache instead of SQLite's 2 MB: the hot indexes and rows of a 100,000-blog
  // site stay in memory (measured by `npm run bench -- --blogs 100000`).
  sqlite.pragma('cache_size = -32768');
  const sqliteChanges = new SqliteChanges(sqlite);
  return { ...wrap(new Kysely<any>({ dialect: new SqliteDialectKeepingErrors(sqlite, sqliteChanges) }), 'sqlite'), sqlite, sqliteChanges, viewerChanges: sqliteChanges.viewer };
}

/**
 * SQLite rolls a transaction back by itself when a statement fails with SQLITE_FULL, SQLITE_IOERR
 * and a few others. Kysely's own ROLLBACK then fails with "no transaction is active", and that
 * error replaced the one that matters: a full disk answered 500 instead of 503 (decision 009).
 */
class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly changes: SqliteChanges,
  ) {
    super({ database: withStatementCache(sqlite) });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    // Every statement of `db` and `authDb` (better-auth) is told to the change watch, failed or
    // not, as PostgreSQL's are told to the version listener below; before it runs too, so a read
    // between the two (another request's, a microtask apart) does not take the last answer.
    watchStatements(driver, (query, result) => this.changes.noteStatement(query, result), true);
    return driver;
  }
}

/**
 * Tells the version listener (decision 044) each time a statement that may have written ends, so
 * the instance that wrote asks the database until its own notifications are in. Every query of
 * `db` and `authDb` (better-auth) passes here. A select writes nothing; anything else may, or
 * ends a transaction that did (`commit`), and is counted when it ends, failed or not (a failure
 * may come after the commit). `begin` and savepoints open nothing that is seen before commit.
 */
class PostgresDialectNotingWrites extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    private readonly onWrite: () => void,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    watchStatements(driver, (query) => {
      if (mayWrite(query)) this.onWrite();
    });
    return driver;
  }
}

/**
 * Tells `note` of every statement run on the driver's connections when it has ended, with its
 * result (null when it failed), and also before it runs (no result) when `before` is set.
 */
function watchStatements(driver: Driver, note: (query: CompiledQuery, result?: QueryResult<unknown> | null) => void, before = false): void {
  const acquire = driver.acquireConnection.bind(driver);
  const noted = new WeakSet<DatabaseConnection>();
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!noted.has(connection)) {
      noted.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async <R>(query: CompiledQuery) => {
        if (before) note(query);
        let result: QueryResult<R> | null = null;
        try {
          result = await execute<R>(query);
          return result;
        } finally {
          note(query, result);
        }
      };
    }
    return connection;
  };
}

const READ_ONLY_RAW = /^\s*(select|begin|start transaction|savepoint|release|show)\b/i;
const mayWrite = (query: CompiledQuery) =>
  query.query.kind !== 'SelectQueryNode' && !(query.query.kind === 'RawNode' && READ_ONLY_RAW.test(query.sql));

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; a better-sqlite3 statement holds native memory that V8 does
 * not see, so under load thousands of them waited for a garbage collection that had no reason to
 * come (RSS grew by hundreds of MB). Our queries are a small fixed set of SQL texts, so each is
 * prepared once and reused, since preparing costs more than running on the hot reads; the cache is bounded
 * in case a query's text ever varies with its input (an IN list of varying length).
 */
function withStatementCache(sqlite: SQLite.Database) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Least recently used goes first: re-insert to mark it fresh.
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

function wrap(base: Kysely<any>, dialect: DialectName): Omit<DatabaseHandle, 'viewerChanges'> {
  return {
    db: base.withPlugin(new NormalizeResultsPlugin()) as Kysely<Database>,
    authDb: base,
    dialect,
    async ping() {
      await sql`select 1`.execute(base);
    },
    async close() {
      await base.destroy();
    },
  };
}

