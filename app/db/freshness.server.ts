import { createHash } from 'node:crypto';
import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { DialectName } from './schema';
import { FRESHNESS, type FreshnessRule, type RowChanges, type StaleTarget } from './freshness';

/**
 * The freshness rules (`freshness.ts`) as triggers, and the step that keeps the database's
 * triggers equal to them (docs/decisions/055). Every generated trigger and function is named
 * `fresh_…`; nothing else may use that prefix.
 *
 * - SQLite: row triggers, one per table, event and target, that bump stripe 0 of a scope or
 *   `update blogs set revision = revision + 1 where …` in the writing statement (one writer, and
 *   `revision` is in no trigger's column list, so a revision fires nothing further); a writer's
 *   version (`blogsOfWriter`) is an upsert of her one `writer_versions` row (docs/decisions/093).
 * - PostgreSQL: one trigger per table and target. A scope is bumped at commit by the striped
 *   `bump_version_at_commit` of decisions 020 and 044 (a deferred constraint trigger, so counters
 *   are never part of a deadlock); a blog's own revision is set on the row being written (a
 *   BEFORE trigger: no second statement, no new lock); other blogs are revised after the row, and
 *   a writer's version is upserted after it (its own trigger says so on the versions channel).
 */
export interface TriggerDdl {
  name: string;
  table: string;
  create: string;
}
export interface FreshnessDdl {
  functions: { name: string; create: string }[];
  triggers: TriggerDdl[];
}

const PREFIX = 'fresh_';
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

interface MergedRule {
  table: string;
  target: StaleTarget;
  key: string;
  insert: boolean;
  delete: boolean;
  /** null: no update counts; 'any': every update; else these columns. */
  update: null | 'any' | string[];
}

function targetKey(target: StaleTarget): string {
  switch (target.kind) {
    case 'scope':
      return target.scope;
    case 'own-revision':
      return 'revision';
    case 'blog':
      return `blog_${target.column}`;
    case 'blog-of':
      return `blog_of_${target.table}_${target.column}`;
    case 'blogs-of-person':
      return `person_${target.column}`;
    case 'blogs-of-writer':
      return `writer_${target.column}`;
    case 'blogs-commented-by':
      return `commented_by_${target.by}`;
  }
}

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`freshness rule: "${name}" is not a plain lower-case name`);
  return name;
}

function check(rule: FreshnessRule, target: StaleTarget, on: RowChanges) {
  identifier(rule.table);
  const columns = Array.isArray(on.update) ? on.update : [];
  columns.forEach(identifier);
  if ('column' in target) identifier(target.column);
  if (target.kind === 'blog-of') identifier(target.table);
  if (target.kind === 'blogs-commented-by') identifier(target.by);
  if (rule.table === 'blogs' && (on.update === true || columns.some((c) => c === 'revision' || c === 'views'))) {
    // A revision must not revise itself, and a view is never a reason to re-render (decision 024).
    throw new Error('freshness rule on blogs: name its columns, never `revision` or `views`');
  }
  if (target.kind === 'blogs-of-writer' && rule.table !== 'blogs') throw new Error('freshness rule: `blogsOfWriter` is for rows of blogs');
  if (target.kind === 'own-revision' && (rule.table !== 'blogs' || on.insert || on.delete)) {
    throw new Error('freshness rule: `ownRevision` is for updates of blogs');
  }
}

/** Rules with the same table and target as one: their row changes merged, columns in first-seen order. */
export function mergeRules(rules: readonly FreshnessRule[]): MergedRule[] {
  const merged = new Map<string, MergedRule>();
  for (const rule of rules) {
    for (const target of rule.stale) {
      check(rule, target, rule.on);
      const key = targetKey(target);
      const id = `${rule.table} ${key}`;
      let into = merged.get(id);
      if (!into) merged.set(id, (into = { table: rule.table, target, key, insert: false, delete: false, update: null }));
      into.insert ||= !!rule.on.insert;
      into.delete ||= !!rule.on.delete;
      if (rule.on.update === true) into.update = 'any';
      else if (rule.on.update && into.update !== 'any') into.update = [...new Set([...(into.update ?? []), ...rule.on.update])];
    }
  }
  return [...merged.values()];
}

/** The blogs a row makes stale, as a condition on `blogs`; `row` is `new`, `old` or a record. */
function staleBlogs(target: StaleTarget, row: string): string {
  switch (target.kind) {
    case 'blog':
      return `id = ${row}.${target.column}`;
    case 'blog-of':
      return `id = (select blog_id from "${target.table}" where id = ${row}.${target.column})`;
    case 'blogs-of-person':
      return `owner_id = ${row}.${target.column} or id in (select blog_id from comments where user_id = ${row}.${target.column})`;
    case 'blogs-commented-by':
      return `id in (select blog_id from comments where ${target.by} = ${row}.${target.column})`;
    default:
      throw new Error(`no blogs for ${target.kind}`);
  }
}

/** Moves the version of the writer `row` names (docs/decisions/093): one row, however many posts she has. */
const bumpWriter = (row: string, column: string, when = '') =>
  `insert into writer_versions (owner_id, version) select ${row}.${column}, 1${when ? ` where ${when}` : ' where true'} ` +
  'on conflict (owner_id) do update set version = writer_versions.version + 1';

/** A writer's version moves for her post's insert and delete, and for an update: both writers' when it changed hands. */
function writerActions(column: string, event: 'insert' | 'update' | 'delete'): string[] {
  if (event === 'insert') return [bumpWriter('new', column)];
  if (event === 'delete') return [bumpWriter('old', column)];
  return [bumpWriter('new', column), bumpWriter('old', column, `old.${column} is not new.${column}`)];
}

const updateEvent = (rule: MergedRule) => (rule.update === 'any' ? 'UPDATE' : `UPDATE OF ${rule.update!.join(', ')}`);

function sqliteDdl(rules: MergedRule[]): FreshnessDdl {
  const triggers: TriggerDdl[] = [];
  for (const rule of rules) {
    const events: ['insert' | 'update' | 'delete', string, 'new' | 'old'][] = [];
    if (rule.insert) events.push(['insert', 'INSERT', 'new']);
    if (rule.update) events.push(['update', updateEvent(rule), 'new']);
    if (rule.delete) events.push(['delete', 'DELETE', 'old']);
    for (const [label, event, row] of events) {
      const action =
        rule.target.kind === 'blogs-of-writer'
          ? writerActions(rule.target.column, label).join('; ')
          : rule.target.kind === 'scope'
          ? `update content_version_stripes set version = version + 1 where scope = '${rule.target.scope}' and stripe = 0`
          : rule.target.kind === 'own-revision'
            ? 'update blogs set revision = revision + 1 where id = new.id'
            : `update blogs set revision = revision + 1 where ${staleBlogs(rule.target, row)}`;
      const name = `${PREFIX}${rule.table}_${label}_${rule.key}`;
      triggers.push({ name, table: rule.table, create: `CREATE TRIGGER ${name} AFTER ${event} ON "${rule.table}" BEGIN ${action}; END` });
    }
  }
  return { functions: [], triggers };
}

function postgresDdl(rules: MergedRule[]): FreshnessDdl {
  const functions: FreshnessDdl['functions'] = [];
  const triggers: TriggerDdl[] = [];
  const fn = (name: string, body: string) =>
    functions.push({ name, create: `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ ${body} $$` });
  if (rules.some((rule) => rule.target.kind === 'own-revision')) fn(`${PREFIX}own_revision`, 'begin new.revision := old.revision + 1; return new; end');
  for (const rule of rules) {
    const events = [rule.insert && 'INSERT', rule.update && updateEvent(rule), rule.delete && 'DELETE'].filter(Boolean).join(' OR ');
    const name = `${PREFIX}${rule.table}_${rule.key}`;
    const on = `ON "${rule.table}"`;
    let create: string;
    if (rule.target.kind === 'scope') {
      create = `CREATE CONSTRAINT TRIGGER ${name} AFTER ${events} ${on} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_version_at_commit('${rule.target.scope}')`;
    } else if (rule.target.kind === 'own-revision') {
      create = `CREATE TRIGGER ${name} BEFORE ${events} ${on} FOR EACH ROW EXECUTE FUNCTION ${PREFIX}own_revision()`;
    } else if (rule.target.kind === 'blogs-of-writer') {
      const column = rule.target.column;
      const [bumpNew, bumpOld] = [bumpWriter('new', column), bumpWriter('old', column)];
      fn(name, `begin if tg_op = 'DELETE' then ${bumpOld}; else ${bumpNew}; end if; ` +
        `if tg_op = 'UPDATE' then if old.${column} is distinct from new.${column} then ${bumpOld}; end if; end if; return null; end`);
      create = `CREATE TRIGGER ${name} AFTER ${events} ${on} FOR EACH ROW EXECUTE FUNCTION ${name}()`;
    } else {
      fn(name, `declare r record; begin if tg_op = 'DELETE' then r := old; else r := new; end if; update blogs set revision = revision + 1 where ${staleBlogs(rule.target, 'r')}; return null; end`);
      create = `CREATE TRIGGER ${name} AFTER ${events} ${on} FOR EACH ROW EXECUTE FUNCTION ${name}()`;
    }
    triggers.push({ name, table: rule.table, create });
  }
  return { functions, triggers };
}

/** The triggers (and, on PostgreSQL, functions) the rules call for. */
export function freshnessDdl(dialect: DialectName, rules: readonly FreshnessRule[] = FRESHNESS): FreshnessDdl {
  const merged = mergeRules(rules);
  return dialect === 'postgres' ? postgresDdl(merged) : sqliteDdl(merged);
}

const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** What a database holds of ours: `trigger name` or `function name` → fingerprint of what made it. */
async function installed(db: Kysely<any>, pg: boolean): Promise<{ found: Map<string, string>; triggers: { name: string; table: string }[]; functions: string[] }> {
  const found = new Map<string, string>();
  if (!pg) {
    const { rows } = await sql<{ name: string; table: string; sql: string }>`
      select name, tbl_name as "table", sql from sqlite_master where type = 'trigger' and name like 'fresh\\_%' escape '\\'`.execute(db);
    for (const row of rows) found.set(`trigger ${row.name}`, fingerprint(row.sql));
    return { found, triggers: rows, functions: [] };
  }
  const { rows: triggers } = await sql<{ name: string; table: string; note: string | null }>`
    select t.tgname as name, c.relname as "table", obj_description(t.oid, 'pg_trigger') as note
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where t.tgname like 'fresh\\_%' and not t.tgisinternal and n.nspname = current_schema()`.execute(db);
  const { rows: functions } = await sql<{ name: string; note: string | null }>`
    select p.proname as name, obj_description(p.oid, 'pg_proc') as note
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where p.proname like 'fresh\\_%' and n.nspname = current_schema()`.execute(db);
  for (const row of triggers) found.set(`trigger ${row.name}`, row.note ?? '');
  for (const row of functions) found.set(`function ${row.name}`, row.note ?? '');
  return { found, triggers, functions: functions.map((row) => row.name) };
}

function wanted(ddl: FreshnessDdl): Map<string, string> {
  const map = new Map<string, string>();
  for (const f of ddl.functions) map.set(`function ${f.name}`, fingerprint(f.create));
  for (const t of ddl.triggers) map.set(`trigger ${t.name}`, fingerprint(t.create));
  return map;
}

const sameMaps = (a: Map<string, string>, b: Map<string, string>) => a.size === b.size && [...a].every(([key, value]) => b.get(key) === value);

/**
 * Brings the database's generated triggers in line with the rules, run after every migration
 * run: nothing happens while they match; otherwise, in one transaction, every `fresh_` trigger
 * and function goes and the rules' are made. On PostgreSQL an advisory lock makes instances that
 * start together take turns, and each trigger and function carries the fingerprint of the
 * statement that made it as its comment. Returns whether it changed anything.
 */
export async function syncFreshness(db: Kysely<any>, rules: readonly FreshnessRule[] = FRESHNESS): Promise<boolean> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const ddl = freshnessDdl(pg ? 'postgres' : 'sqlite', rules);
  const want = wanted(ddl);
  return db.transaction().execute(async (trx) => {
    if (pg) await sql`select pg_advisory_xact_lock(hashtext('afterglow_freshness'))`.execute(trx);
    const have = await installed(trx, pg);
    if (sameMaps(have.found, want)) return false;
    for (const t of have.triggers) await sql.raw(`DROP TRIGGER IF EXISTS ${t.name}${pg ? ` ON "${t.table}"` : ''}`).execute(trx);
    for (const name of have.functions) await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(trx);
    for (const f of ddl.functions) {
      await sql.raw(f.create).execute(trx);
      await sql.raw(`COMMENT ON FUNCTION ${f.name}() IS '${fingerprint(f.create)}'`).execute(trx);
    }
    for (const t of ddl.triggers) {
      await sql.raw(t.create).execute(trx);
      if (pg) await sql.raw(`COMMENT ON TRIGGER ${t.name} ON "${t.table}" IS '${fingerprint(t.create)}'`).execute(trx);
    }
    return true;
  });
}
