import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { DIALECT_ONLY_COLUMNS, TABLE_COLUMNS } from './schema';

/** better-auth's own tables, of which the types hold only the columns our queries read. */
const AUTH_SUBSETS = new Set(['user', 'account', 'verification', 'passkey']);

describeOnDialects('database on %s', (t, dialect) => {
  it('matches the table types after a fresh migration', async () => {
    const tables = await t.deps.database.db.introspection.getTables();
    for (const [table, columns] of Object.entries(TABLE_COLUMNS)) {
      const found = tables.find((x) => x.name === table);
      expect(found, `table ${table}`).toBeDefined();
      const actual = found!.columns.map((c) => c.name);
      for (const column of columns) expect(actual, `${table}.${column}`).toContain(column);
      const extra = DIALECT_ONLY_COLUMNS[dialect][table as keyof typeof TABLE_COLUMNS] ?? [];
      if (!AUTH_SUBSETS.has(table)) expect(actual.sort()).toEqual([...columns, ...extra].sort());
    }
  });

  it('returns timestamps as ISO strings and counts as numbers on both dialects', async () => {
    const { user } = await t.createUser();
    const { db } = t.deps.database;
    await db
      .insertInto('blogs')
      .values({
        id: 'b1',
        owner_id: user.id,
        title: 'A title',
        category: 'Personal',
        type: 'Mini blog',
        short_description: 'short',
        long_description: 'long',
        details: null,
        availability: 'Public',
        photo: null,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z',
      })
      .execute();
    const row = await db.selectFrom('blogs').select(['created_at', 'likes']).where('id', '=', 'b1').executeTakeFirstOrThrow();
    expect(row.created_at).toBe('2026-11-22T10:00:00.000Z');
    expect(row.likes).toBe(0);
    const { count } = await db.selectFrom('blogs').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    expect(count).toBe(1);
  });

  it('enforces one like per user and blog, and cascades deletes', async () => {
    const { user } = await t.createUser();
    const { db } = t.deps.database;
    await db
      .insertInto('blogs')
      .values({
        id: 'b2', owner_id: user.id, title: 'T', category: 'Technology', type: 'Video',
        short_description: 's', long_description: 'l', details: null, availability: 'Hidden', photo: null,
        created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z',
      })
      .execute();
    const like = { blog_id: 'b2', user_id: user.id, user_email: user.email, created_at: '2026-11-22T10:00:00.000Z' };
    await db.insertInto('likes').values(like).execute();
    await expect(db.insertInto('likes').values(like).execute()).rejects.toThrow();
    await db.deleteFrom('blogs').where('id', '=', 'b2').execute();
    const left = await db.selectFrom('likes').selectAll().where('blog_id', '=', 'b2').execute();
    expect(left).toEqual([]);
  });

  it('refuses values outside the choice lists and length limits', async () => {
    const { user } = await t.createUser();
    const base = {
      id: 'b3', owner_id: user.id, title: 'T', category: 'Personal', type: 'Video',
      short_description: 's', long_description: 'l', details: null, availability: 'Public' as const, photo: null,
      created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z',
    };
    const { db } = t.deps.database;
    await expect(db.insertInto('blogs').values({ ...base, category: 'Gossip' }).execute()).rejects.toThrow();
    await expect(db.insertInto('blogs').values({ ...base, availability: 'Secret' as 'Hidden' }).execute()).rejects.toThrow();
    await expect(db.insertInto('blogs').values({ ...base, title: 'x'.repeat(201) }).execute()).rejects.toThrow();
    await sql`select 1`.execute(db);
  });

  it("holds better-auth's user table and the profiles to the forms' limits (name 100, photo URL 2,048)", async () => {
    const { user } = await t.createUser();
    const { db } = t.deps.database;
    await expect(db.updateTable('user').set({ name: 'x'.repeat(101) }).where('id', '=', user.id).execute()).rejects.toThrow(/check|constraint/i);
    await expect(db.updateTable('user').set({ image: `https://example.com/${'x'.repeat(2048)}` }).where('id', '=', user.id).execute()).rejects.toThrow(/check|constraint/i);
    await expect(db.updateTable('profiles').set({ name: 'x'.repeat(101) }).where('user_id', '=', user.id).execute()).rejects.toThrow(/check|constraint/i);
    await expect(db.updateTable('profiles').set({ photo: `/${'x'.repeat(2048)}` }).where('user_id', '=', user.id).execute()).rejects.toThrow(/check|constraint/i);
    await db.updateTable('user').set({ name: 'x'.repeat(100), image: `/${'x'.repeat(2047)}` }).where('id', '=', user.id).execute();
  });
});
