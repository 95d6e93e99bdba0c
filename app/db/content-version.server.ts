import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { DatabaseHandle } from './kysely.server';
import type { Database } from './schema';
import type { BlogVersions, ContentVersions, FoundBlog, PageVersions } from './versions';
import type { VersionListener } from './version-listener.server';

export type { ContentVersions, PageVersions };

/** Inside a transaction (`db` may be one), through the query builder. */
export async function readContentVersions(db: Kysely<Database>): Promise<ContentVersions> {
  const rows = await db
    .selectFrom('content_version_stripes')
    .select((eb) => ['scope', eb.fn.sum<number | string>('version').as('version')])
    .groupBy('scope')
    .execute();
  return toVersions(rows);
}

async function readPageVersions(db: Kysely<Database>, blogId: string | null): Promise<PageVersions> {
  const [versions, row] = await Promise.all([
    readContentVersions(db),
    blogId === null
      ? undefined
      : db
          .selectFrom('blogs')
          .leftJoin('writer_versions', 'writer_versions.owner_id', 'blogs.owner_id')
          .select(['blogs.revision', 'writer_versions.version as writer'])
          .where('blogs.id', '=', blogId)
          .executeTakeFirst(),
  ]);
  return { ...versions, ...(row ? { blog: Number(row.revision), writer: Number(row.writer ?? 0) } : NO_BLOG) };
}

const NO_BLOG = { blog: null, writer: null } as const;
const VERSIONS_SQL = 'select scope, sum(version) as version from content_version_stripes group by scope';
/** A blog's revision and its writer's version (docs/decisions/093; no row of hers yet: 0). */
const REVISION_SQL =
  'select b.revision, coalesce(w.version, 0) from blogs b left join writer_versions w on w.owner_id = b.owner_id where b.id = ?';
/**
 * PostgreSQL: the versions and the named blogs' revisions, writers and writers' versions in one
 * round trip (`kind` 's' for a scope, 'b' for a blog); with no ids the second part is empty.
 */
const PAGE_VERSIONS_PG_SQL =
  "select 's' as kind, scope as key, sum(version)::text as version, null::text as owner, null::text as writer from content_version_stripes group by scope " +
  "union all select 'b', b.id, b.revision::text, b.owner_id, coalesce(w.version, 0)::text from blogs b " +
  'left join writer_versions w on w.owner_id = b.owner_id where b.id = any($1::text[])';
interface KnownVersions {
  /** The change watch's generation they were read at. */
  generation: number;
  versions: ContentVersions;
  revisions: Map<string, BlogVersions | null>;
}
const statements = new WeakMap<SQLite.Database, { versions: SQLite.Statement; revision: SQLite.Statement; known: KnownVersions }>();

/**
 * The same read for the hot path, once per request (page cache, session cache). On SQLite it
 * runs prepared statements on the handle itself, about 6 µs each instead of 40 through the query
 * builder, and only after a write: between writes the last answer stands (decision 059). Only while no transaction is open on that handle: one in the middle of a write may
 * hold counters it has not committed; then the builder's path waits its turn. On PostgreSQL it
 * is one named prepared statement on the pool, outside any transaction, unless the instance's
 * version listener knows the answer for sure (docs/decisions/044): then no query at all.
 */
export function readCurrentVersions(database: DatabaseHandle, blogId: string | null = null): PageVersions | Promise<PageVersions> {
  const { sqlite, pgPool, versionListener, sqliteChanges } = database;
  if (pgPool) return versionListener?.answer(blogId) ?? readFromPool(pgPool, blogId, versionListener);
  if (!sqlite || sqlite.inTransaction) return readPageVersions(database.db, blogId);
  let prepared = statements.get(sqlite);
  if (!prepared) {
    prepared = { versions: sqlite.prepare(VERSIONS_SQL), revision: sqlite.prepare(REVISION_SQL).raw(), known: { generation: -1, versions: { lists: 0, sessions: 0 }, revisions: new Map() } };
    statements.set(sqlite, prepared);
  }
  // What was read stands while nothing was written, here or by another connection (decision 059).
  const known = prepared.known;
  sqliteChanges?.poll();
  if (!sqliteChanges || sqliteChanges.generation !== known.generation) {
    known.versions = toVersions(prepared.versions.all() as { scope: keyof ContentVersions; version: number | bigint }[]);
    known.revisions.clear();
    known.generation = sqliteChanges?.generation ?? -1;
  }
  if (blogId === null) return { ...known.versions, ...NO_BLOG };
  let blog = known.revisions.get(blogId);
  if (blog === undefined) {
    const read = prepared.revision.get(blogId) as [number | bigint, number | bigint] | undefined;
    blog = read === undefined ? null : { blog: Number(read[0]), writer: Number(read[1]) };
    if (known.revisions.size >= KNOWN_REVISIONS) known.revisions.clear();
    known.revisions.set(blogId, blog);
  }
  return { ...known.versions, ...(blog ?? NO_BLOG) };
}

/**
 * The versions when they are known without waiting: SQLite's own read, or what PostgreSQL's
 * listener told this instance. Null when only a query could tell (the listener away, a
 * transaction open): a caller that cannot wait leaves the request to the path that can, and no
 * query is started that nobody would wait for (with the database away, its failure would go
 * unheard).
 */
export function knownVersions(database: DatabaseHandle, blogId: string | null = null): PageVersions | null {
  if (database.pgPool) return database.versionListener?.answer(blogId) ?? null;
  if (!database.sqlite || database.sqlite.inTransaction) return null;
  const versions = readCurrentVersions(database, blogId);
  return versions instanceof Promise ? null : versions;
}

/** Blog revisions kept between two writes on SQLite: a bound, not a working set (writes clear it). */
const KNOWN_REVISIONS = 10_000;

interface PgBatch {
  ids: Set<string>;
  answer: Promise<{ versions: ContentVersions; revisions: Map<string, FoundBlog> }>;
}
interface PgReads {
  /** The batch still taking reads: sent once the query in flight has come back. */
  open: PgBatch | null;
  /** The query sent and not yet answered. */
  inFlight: Promise<unknown> | null;
}
const poolReads = new WeakMap<pg.Pool, PgReads>();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
function readsOf(pool: pg.Pool): PgReads {
  let reads = poolReads.get(pool);
  if (!reads) poolReads.set(pool, (reads = { open: null, inFlight: null }));
  return reads;
}

/**
 * PostgreSQL: concurrent reads share one query, with at most one in flight per pool. A read joins
 * the open batch; the batch is sent after the current turn of the event loop and after the query
 * in flight (if any) has come back, so under load every read arriving during one round trip shares
 * the next query instead of each turn sending its own. A read never joins a query already sent,
 * so each answer is at least as new as the request that asked: a like committed before a read is
 * seen by it, as with one query per read. A named statement, parsed and planned once per
 * connection; each read is committed. The revisions it finds are kept by the version listener
 * when LISTEN was in force before the query was sent.
 */
function readFromPool(pool: pg.Pool, blogId: string | null, listener: VersionListener | undefined): Promise<PageVersions> {
  const state = readsOf(pool);
  let batch = state.open;
  if (!batch) {
    const ids = new Set<string>();
    // A failed query in flight does not hold the next one back.
    const sendable = state.inFlight ? state.inFlight.then(nextTurn, nextTurn) : nextTurn();
    const answer = sendable.then(async () => {
      if (state.open === opened) state.open = null;
      const token = listener?.readToken() ?? null;
      const query = pool.query<['s' | 'b', string, string, string | null, string | null]>({ name: 'afterglow_page_versions', text: PAGE_VERSIONS_PG_SQL, values: [[...ids]], rowMode: 'array' });
      state.inFlight = query;
      let result: Awaited<typeof query>;
      try {
        result = await query;
      } finally {
        if (state.inFlight === query) state.inFlight = null;
      }
      const rows: { scope: keyof ContentVersions; version: string }[] = [];
      const revisions = new Map<string, FoundBlog>();
      for (const [kind, key, version, owner, writer] of result.rows) {
        if (kind === 'b') revisions.set(key, { blog: Number(version), owner: owner!, writer: Number(writer) });
        else rows.push({ scope: key as keyof ContentVersions, version });
      }
      listener?.learn(token, revisions);
      return { versions: toVersions(rows), revisions };
    });
    const opened: PgBatch = { ids, answer };
    batch = state.open = opened;
  }
  if (blogId !== null) batch.ids.add(blogId);
  return batch.answer.then(({ versions, revisions }) => {
    const found = blogId === null ? undefined : revisions.get(blogId);
    return { ...versions, ...(found ? { blog: found.blog, writer: found.writer } : NO_BLOG) };
  });
}

function toVersions(rows: { scope: keyof ContentVersions; version: number | bigint | string }[]): ContentVersions {
  const versions: ContentVersions = { lists: 0, sessions: 0 };
  for (const row of rows) if (row.scope in versions) versions[row.scope] = Number(row.version);
  return versions;
}
