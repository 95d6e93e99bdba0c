import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { beforeAll, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';

const modules = import.meta.glob<Migration>('./migrations/*.ts', { eager: true });
const migrations = Object.fromEntries(Object.entries(modules).map(([path, module]) => [path.replace(/^.*\//, '').replace(/\.ts$/, ''), module]));
const IDENTITY = '2026-11-26T09-30-00_privacy-identity-through-user-id';
const BEFORE = Object.keys(migrations).sort().filter((name) => name < IDENTITY).at(-1)!;

/**
 * Migration 2026-11-26T09-30-00 on a database that already has data: the copies on blogs and
 * comments go, what the old endpoints let into the account table is brought within the limits,
 * and the way back restores the copies from the people themselves.
 */
describeOnDialects('the identity migration on %s', (t) => {
  let migrator: Migrator;
  beforeAll(async () => {
    migrator = new Migrator({ db: t.deps.database.db as Kysely<any>, provider: { getMigrations: async () => migrations } });
  });

  it('keeps blogs and comments, drops their copies, and fixes over-long or unsafe account values', async () => {
    const writer = await t.createUser({ name: 'Writer' });
    const reader = await t.createUser({ name: 'Reader' });
    const db = t.deps.database.db as Kysely<any>;
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();

    const now = '2026-11-22T10:00:00.000Z';
    await db.insertInto('blogs').values({
      id: 'b1', owner_id: writer.user.id, email: writer.user.email, name: 'Old copy', title: 'T', category: 'Personal', type: 'Video',
      short_description: 's', long_description: 'l', details: null, availability: 'Public', photo: null, created_at: now, updated_at: now,
    }).execute();
    await db.insertInto('comments').values({
      id: 'c1', blog_id: 'b1', user_id: reader.user.id, user_name: 'Old copy', user_photo: `/${'x'.repeat(900_000)}`, user_email: reader.user.email, comment_text: 'Hi', commented_at: now,
    }).execute();
    await db.updateTable('user').set({ name: 'n'.repeat(300), image: 'javascript:alert(1)' }).where('id', '=', writer.user.id).execute();
    await db.updateTable('user').set({ image: `https://example.com/${'p'.repeat(3000)}` }).where('id', '=', reader.user.id).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const blog = await db.selectFrom('blogs').selectAll().where('id', '=', 'b1').executeTakeFirstOrThrow();
    expect(blog).not.toHaveProperty('email');
    expect(blog).not.toHaveProperty('name');
    const comment = await db.selectFrom('comments').selectAll().where('id', '=', 'c1').executeTakeFirstOrThrow();
    for (const copy of ['user_name', 'user_photo', 'user_email']) expect(comment).not.toHaveProperty(copy);
    expect(comment).toMatchObject({ id: 'c1', blog_id: 'b1', user_id: reader.user.id, comment_text: 'Hi' });
    const users = await db.selectFrom('user').select(['id', 'name', 'image']).where('id', 'in', [writer.user.id, reader.user.id]).execute();
    const byId = new Map(users.map((u) => [u.id, u]));
    expect(byId.get(writer.user.id)).toMatchObject({ name: 'n'.repeat(100), image: null });
    expect(byId.get(reader.user.id)).toMatchObject({ name: 'Reader', image: null });

    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const restored = await db.selectFrom('comments').selectAll().where('id', '=', 'c1').executeTakeFirstOrThrow();
    expect(restored).toMatchObject({ user_name: 'Reader', user_email: reader.user.email });
    expect(await db.selectFrom('blogs').select(['email']).where('id', '=', 'b1').executeTakeFirstOrThrow()).toEqual({ email: writer.user.email });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await sql`select 1`.execute(db);
  });
});
