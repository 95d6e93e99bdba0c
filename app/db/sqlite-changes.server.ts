import type SQLite from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';
import { UNSHOWN_TABLES, ViewerChanges, viewerEffect } from './viewer-writes.server';

/**
 * What a SQLite instance knows about changes to its database without asking it (decision 059).
 * One process writes through its one connection, so it sees every statement it runs; another
 * process (a second instance on the same file, an operator's script) is noticed by
 * `PRAGMA data_version`, which moves whenever another connection commits.
 *
 * - `generation` moves with any statement that may have written, here or elsewhere: a value read
 *   from the database while it stands is still the database's value.
 * - `viewer` hears of writes a signed-in reader's kept page may show (viewer-writes.server.ts):
 *   a write to a table whose changes no version follows moves it for everyone, or for one person
 *   when the row is only theirs (decision 076); any change made elsewhere, which we cannot see
 *   into, moves it for everyone. A kept page (server/http/middleware/viewer-memo.server.ts)
 *   stands while it does.
 */
export class SqliteChanges {
  generation = 0;
  readonly viewer = new ViewerChanges();
  private dataVersion: number | null = null;
  /** A statement of the open transaction may have moved a version. */
  private versionsWritten = false;
  private polledAt = Number.NEGATIVE_INFINITY;
  private readonly dataVersionStatement: SQLite.Statement;

  constructor(sqlite: SQLite.Database) {
    this.dataVersionStatement = sqlite.prepare('pragma data_version').pluck();
  }

  /**
   * Asks SQLite whether another connection has committed since it last asked, at most once a
   * millisecond: the pragma costs about 5 µs, as much as the reads it saves. This process's own
   * writes are known at once (`noteStatement`); another's are seen within a millisecond of their
   * commit, as a request that arrived a moment earlier would not have seen them either.
   */
  poll(): void {
    const at = performance.now();
    if (at - this.polledAt < POLL_MS) return;
    this.polledAt = at;
    const now = Number(this.dataVersionStatement.get());
    if (this.dataVersion !== null && now !== this.dataVersion) {
      this.generation++;
      this.viewer.noteAll();
    }
    this.dataVersion = now;
  }

  /**
   * Told of every statement this process runs: before it runs (`result` undefined) and when it has
   * ended (`result` null when it failed). Any statement that may write moves `generation` both
   * times; `viewer` moves once it has ended, only if it changed a row (or failed, or its count is
   * unknown), unless its table's rows are someone's own (their temporary triggers said whose). Polls that claim nothing (the mail queue's, every second) change no row.
   */
  noteStatement(query: CompiledQuery, result?: QueryResult<unknown> | null): void {
    const kind = query.query.kind;
    if (kind === 'RawNode' && TRANSACTION_BEGIN.test(query.sql)) this.versionsWritten = false;
    if (kind === 'SelectQueryNode' || (kind === 'RawNode' && READ_ONLY_RAW.test(query.sql))) return;
    // A transaction's end moves nothing more than its statements did: the generation moves at a
    // commit or a rollback only if one of them could have moved a version.
    if (kind === 'RawNode' && TRANSACTION_END.test(query.sql)) {
      if (this.versionsWritten) this.generation++;
      if (result !== undefined) this.versionsWritten = false;
      return;
    }
    const table = writtenTable(query);
    // Bookkeeping no page shows (the job queue, the mail queue, Fedify's store, an import's
    // staging: `unshown`, docs/decisions/078) moves no version, so a delivery or an import part
    // does not make every page read its versions again (docs/decisions/098).
    if (table === null || !UNSHOWN_TABLES.has(table)) {
      this.generation++;
      this.versionsWritten = true;
    }
    if (result === undefined) return;
    if (result !== null && rowsChanged(result) === 0) return;
    if (viewerEffect(table, this.viewer.ownRowsWatched) === 'all') this.viewer.noteAll();
  }
}

/** Rows a statement changed: its count (better-sqlite3's `changes`), or the rows it returned. */
function rowsChanged(result: QueryResult<unknown>): number | null {
  if (result.numAffectedRows !== undefined) return Number(result.numAffectedRows);
  return result.rows.length;
}

const POLL_MS = 1;
const READ_ONLY_RAW = /^\s*(select|begin|savepoint|release|pragma\s+\w+\s*$)/i;
const TRANSACTION_BEGIN = /^\s*begin\b/i;
const TRANSACTION_END = /^\s*(commit|rollback)\b/i;

/** The table an insert, update or delete writes (the query builder's, or raw SQL's first); null when unknown. */
function writtenTable(query: CompiledQuery): string | null {
  const node = query.query as { kind: string; into?: TableNode; table?: TableNode; from?: { froms: TableNode[] } };
  if (node.kind === 'RawNode') return RAW_WRITE.exec(query.sql)?.[1] ?? null;
  const table = node.kind === 'InsertQueryNode' ? node.into : node.kind === 'UpdateQueryNode' ? node.table : node.kind === 'DeleteQueryNode' ? node.from?.froms[0] : undefined;
  return table?.kind === 'TableNode' ? (table.table.identifier.name ?? null) : null;
}

const RAW_WRITE = /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?(\w+)"?[\s(]/i;

interface TableNode {
  kind: string;
  table: { identifier: { name?: string } };
}
