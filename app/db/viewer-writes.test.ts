import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { VIEWER_WRITES } from './freshness';
import { FOLLOWED_TABLES, OWN_TABLES, syncViewerWriteTriggers, UNSHOWN_TABLES } from './viewer-writes.server';

/**
 * Decision 076: every write a signed-in reader's kept page may show is heard, by whom it concerns.
 * SQLite hears its own process's writes (sqlite-changes.test.ts); here, what the other writers
 * (PostgreSQL's other instances, an operator's script) are made to say.
 */
describeOnDialects('writes a kept signed-in page hears of on %s', (t, dialect) => {
  const db = () => t.deps.database.db as Kysely<any>;
  const triggers = async () => {
    const { rows } = await sql<{ name: string; table: string }>`
      select t.tgname as name, c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where t.tgname like 'viewer\\_w\\_%' and not t.tgisinternal and n.nspname = current_schema()`.execute(db());
    return new Map(rows.map((row) => [row.table, row.name]));
  };

  it('has every table of the migrated schema classified by a feature (docs/decisions/078)', async () => {
    const { rows } =
      dialect === 'postgres'
        ? await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db())
        : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db());
    expect(rows.length, 'the schema is migrated').toBeGreaterThan(30);
    const unclassified = rows.map((row) => row.name).filter((name) => !name.startsWith('sqlite_') && !VIEWER_WRITES.has(name));
    expect(unclassified, 'classify each in its feature\'s <feature>.freshness.ts (followed, unshown, ownRowsOf or everyone)').toEqual([]);
    // Every own table's person column exists.
    for (const [table, column] of OWN_TABLES) {
      const { rows: found } =
        dialect === 'postgres'
          ? await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`.execute(db())
          : await sql<{ name: string }>`select name from pragma_table_info(${table}) where name = ${column}`.execute(db());
      expect(found.length, `${table}.${column}`).toBe(1);
    }
  });

  it.runIf(dialect === 'postgres')('notifies from every table but the followed and unshown ones, a new table included', async () => {
    const { rows } = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db());
    const have = await triggers();
    for (const { name } of rows) {
      const skipped = FOLLOWED_TABLES.has(name) || UNSHOWN_TABLES.has(name);
      expect(have.has(name), name).toBe(!skipped);
    }
    for (const table of OWN_TABLES.keys()) expect(have.has(table), table).toBe(true);
    expect(await syncViewerWriteTriggers(db()), 'in line already: nothing to do').toBe(false);
    await sql`create table viewer_probes (id text primary key)`.execute(db());
    expect(await syncViewerWriteTriggers(db())).toBe(true);
    expect((await triggers()).has('viewer_probes'), 'a table added by a later migration').toBe(true);
  });

  it.runIf(dialect === 'sqlite')('makes nothing in the database file: another connection runs no function it lacks', async () => {
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and name like 'viewer%'`.execute(db());
    expect(rows).toEqual([]);
    const { rows: temporary } = await sql<{ name: string }>`select name from sqlite_temp_master where type = 'trigger' and name like 'viewer%'`.execute(db());
    expect(temporary.length).toBe(OWN_TABLES.size * 4);
  });
});
