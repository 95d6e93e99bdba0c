import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { LRUCache } from 'lru-cache';

/**
 * Which writes a signed-in reader's kept page (server/http/middleware/viewer-memo.server.ts) must
 * hear of, and whose pages they concern (docs/decisions/076). One list for both dialects: the
 * SQLite change watch reads it, and it is made into triggers for the other writers (PostgreSQL's
 * other instances, an operator's script).
 *
 * - `FOLLOWED_TABLES`: every change moves a blog's revision or the lists version (freshness.ts),
 *   which the memo compares already;
 * - `UNSHOWN_TABLES`: background bookkeeping no kept page shows;
 * - `OWN_TABLES`: a row shown only on the pages of the person its column names (their follow
 *   button, their wishlist marks, their bell): a change there makes stale that person's kept
 *   pages only;
 * - any other table: a change may show on anyone's kept page (a role, a standing, a profile): it
 *   makes every reader's kept pages stale.
 */
export const FOLLOWED_TABLES: ReadonlySet<string> = new Set([
  'blogs', 'comments', 'likes', 'content_version_stripes', 'content_versions',
  // Its inserts and deletes revise the comment's blog; it is never updated.
  'comment_likes',
  // A post's tags are written with its `tags_text`, which moves its revision and the lists (docs/decisions/069).
  'tags', 'blog_tags',
  // Likes and boosts from other servers revise the post's page (docs/decisions/080).
  'remote_reactions',
]);

export const UNSHOWN_TABLES: ReadonlySet<string> = new Set([
  'jobs', 'mail_queue', 'mail_messages', 'blog_views_daily',
  // Who is in a notification's group: on the notifications page only (the bell counts notifications).
  'notification_actors',
  'kysely_migration', 'kysely_migration_lock',
  // A post's versions (its history page), an import's bookkeeping and old addresses (answered as
  // redirects, never as a page), federation's keys, store and reply ids (docs/decisions/068, 070, 072).
  'blog_revisions', 'import_runs', 'import_items', 'legacy_paths', 'actor_keys', 'fedify_kv', 'remote_replies',
  // Passkeys are listed on the account page only, which no memo keeps.
  'passkey',
]);

/** Table → the column naming the one person whose pages show its rows. */
export const OWN_TABLES: ReadonlyMap<string, string> = new Map([
  ['follows', 'follower_id'], // the follow button; a writer's follower count is on the author page, which no memo keeps
  ['wishlist', 'user_id'],
  ['notifications', 'recipient_id'], // the bell's unread count
  ['notification_settings', 'user_id'],
  ['blog_drafts', 'owner_id'], // the writer's own drafts (docs/decisions/070)
  ['exports', 'user_id'], // the writer's own exports (docs/decisions/074)
]);

/** Kept users' generations; one forgotten makes every kept page stale (it may have moved). */
const KEPT_USERS = 100_000;

/**
 * What an instance has heard of writes a signed-in reader's kept page may show. `all` moves with
 * a write that may show on anyone's page, and whenever this instance may have missed writes (a
 * lost listening connection); `of(user)` with a write to that person's own rows.
 */
export class ViewerChanges {
  all = 0;
  /** Whether this process hears of `OWN_TABLES` writes by user (SQLite: its temporary triggers). */
  ownRowsWatched = false;
  private readonly users = new LRUCache<string, number>({
    max: KEPT_USERS,
    dispose: (_value, _key, reason) => {
      if (reason === 'evict') this.all++;
    },
  });

  noteAll(): void {
    this.all++;
  }

  noteUser(userId: string | null): void {
    if (userId === null || userId === '') this.all++;
    else this.users.set(userId, (this.users.get(userId) ?? 0) + 1);
  }

  of(userId: string): number {
    return this.users.get(userId) ?? 0;
  }
}

/** The change a statement to `table` makes to kept pages, as the SQLite watch sees it. */
export function viewerEffect(table: string | null, ownRowsWatched: boolean): 'none' | 'own' | 'all' {
  if (table === null) return 'all';
  if (FOLLOWED_TABLES.has(table) || UNSHOWN_TABLES.has(table)) return 'none';
  if (OWN_TABLES.has(table) && ownRowsWatched) return 'own';
  return 'all';
}

/** Table names as PostgreSQL keeps them (better-auth's `twoFactor` is quoted); a trigger's name is lower-cased. */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PREFIX = 'viewer_w_';
const FUNCTION_SQLITE = 'afterglow_viewer_write';

/**
 * SQLite: temporary triggers on this connection tell `changes` whose rows a write to an
 * `OWN_TABLES` table touched. Temporary, so nothing is stored in the file and another connection
 * (an operator's `sqlite3`) runs no function it lacks; their writes are heard by `data_version`
 * and make every kept page stale. Called after the migrations (the tables must exist).
 */
export function watchOwnRowsSqlite(sqlite: SQLite.Database, changes: ViewerChanges): void {
  sqlite.function(FUNCTION_SQLITE, { deterministic: false, directOnly: false }, (userId: unknown) => {
    changes.noteUser(typeof userId === 'string' ? userId : null);
    return null;
  });
  const tables = new Set((sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]));
  for (const [table, column] of OWN_TABLES) {
    if (!tables.has(table)) continue;
    for (const [event, row] of [['insert', 'new'], ['update', 'old'], ['update', 'new'], ['delete', 'old']] as const) {
      const name = `${PREFIX}${table}_${event}_${row}`;
      sqlite.exec(`DROP TRIGGER IF EXISTS temp.${name}`);
      sqlite.exec(`CREATE TEMP TRIGGER ${name} AFTER ${event.toUpperCase()} ON main."${table}" BEGIN SELECT ${FUNCTION_SQLITE}(${row}.${column}); END`);
    }
  }
  changes.ownRowsWatched = true;
}

/**
 * PostgreSQL: every table but the followed and unshown ones notifies the versions channel when a
 * row changes (at commit, once per distinct payload and transaction): `u <user id>` for an
 * `OWN_TABLES` row (the old and the new person, if an update moves it), `w <table>` for any other. Made
 * after every migration run for the tables that exist then, so a new table is covered without a
 * word; instances that start together take turns (an advisory lock); nothing is done while the
 * triggers match. Returns whether it changed anything.
 */
export async function syncViewerWriteTriggers(db: Kysely<any>): Promise<boolean> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return false;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('afterglow_viewer_writes'))`.execute(trx);
    const { rows: tables } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`.execute(trx);
    const want = new Map<string, { table: string; fn: string; create: string }>();
    const functions = new Map<string, string>();
    functions.set(`${PREFIX}any`, `CREATE FUNCTION ${PREFIX}any() RETURNS trigger LANGUAGE plpgsql AS $$ begin perform pg_notify('afterglow_versions', 'w ' || tg_table_name); return null; end $$`);
    for (const { name: table } of tables) {
      if (FOLLOWED_TABLES.has(table) || UNSHOWN_TABLES.has(table)) continue;
      // A name we cannot write safely in DDL would be a table no one hears of: refuse to start.
      if (!IDENTIFIER.test(table)) throw new Error(`viewer writes: table "${table}" has a name that cannot be watched`);
      const column = OWN_TABLES.get(table);
      let fn = `${PREFIX}any`;
      if (column) {
        fn = `${PREFIX}own_${table}`;
        functions.set(
          fn,
          `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ begin ` +
            `if tg_op <> 'INSERT' then perform pg_notify('afterglow_versions', 'u ' || coalesce(old.${column}, '')); end if; ` +
            `if tg_op <> 'DELETE' then perform pg_notify('afterglow_versions', 'u ' || coalesce(new.${column}, '')); end if; ` +
            `return null; end $$`,
        );
      }
      const name = `${PREFIX}${table.toLowerCase()}`;
      want.set(name, { table, fn, create: `CREATE TRIGGER ${name} AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION ${fn}()` });
    }
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([[...functions], [...want]]))
      .digest('hex')
      .slice(0, 32);
    const { rows: installed } = await sql<{ name: string; table: string; note: string | null }>`
      select t.tgname as name, c.relname as "table", obj_description(t.oid, 'pg_trigger') as note
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where t.tgname like 'viewer\\_w\\_%' and not t.tgisinternal and n.nspname = current_schema()`.execute(trx);
    if (installed.length === want.size && installed.every((row) => want.has(row.name) && row.note === fingerprint)) return false;
    for (const row of installed) await sql.raw(`DROP TRIGGER IF EXISTS ${row.name} ON "${row.table}"`).execute(trx);
    const { rows: stale } = await sql<{ name: string }>`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where p.proname like 'viewer\\_w\\_%' and n.nspname = current_schema()`.execute(trx);
    for (const row of stale) await sql.raw(`DROP FUNCTION IF EXISTS ${row.name}()`).execute(trx);
    for (const create of functions.values()) await sql.raw(create).execute(trx);
    for (const [name, trigger] of want) {
      await sql.raw(trigger.create).execute(trx);
      await sql.raw(`COMMENT ON TRIGGER ${name} ON "${trigger.table}" IS '${fingerprint}'`).execute(trx);
    }
    return true;
  });
}
