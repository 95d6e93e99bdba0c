import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDatabase } from '~/db/kysely.server';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { createTestApp, type TestApp } from '#test/test-app';
import { tempDirs } from '#test/temp-dirs';
// @ts-expect-error plain JavaScript operator scripts
import { backup } from './backup.js';
// @ts-expect-error plain JavaScript operator scripts
import { restore } from './restore.js';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const TABLES = ['blogs', 'comments', 'likes', 'wishlist', 'subscribers', 'user', 'session'] as const;

describe.each(TEST_DIALECTS)('backup and restore on %s', (dialect) => {
  let app: TestApp | undefined;
  let target: ScratchDatabase | undefined;
  afterEach(async () => {
    await app?.close();
    await target?.drop();
  });

  it('restores every row and every referenced image into a fresh place', async () => {
    app = await createTestApp(dialect);
    const { db } = app.deps.database;
    const writer = await app.createUser();
    const reader = await app.createUser();
    const uploads = path.join(app.scratch.dataDir, 'uploads');
    mkdirSync(uploads, { recursive: true });
    const now = '2026-11-22T10:00:00.000Z';
    for (let i = 0; i < 25; i++) {
      const photo = `/uploads/photo-${i}-800.webp`;
      writeFileSync(path.join(uploads, path.basename(photo)), `image ${i}`);
      await db
        .insertInto('blogs')
        .values({
          id: `b${i}`, owner_id: writer.user.id, title: `Blog ${i}`,
          category: 'Personal', type: 'Mini blog', short_description: 's', long_description: 'l', details: null,
          availability: i % 5 === 0 ? 'Hidden' : 'Public', photo, created_at: now, updated_at: now,
        })
        .execute();
      await db.insertInto('likes').values({ blog_id: `b${i}`, user_id: reader.user.id, user_email: reader.user.email, created_at: now }).execute();
      await db
        .insertInto('comments')
        .values({ id: `c${i}`, blog_id: `b${i}`, user_id: reader.user.id, root_id: `c${i}`, comment_text: 'Nice', commented_at: now })
        .execute();
    }
    await db.insertInto('subscribers').values({ id: 's1', email: 'fan@example.com', created_at: now }).execute();
    const counts = async (database: typeof db) =>
      Object.fromEntries(
        await Promise.all(
          TABLES.map(async (t) => [t, Number((await database.selectFrom(t as 'blogs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)]),
        ),
      );
    const before = await counts(db);

    // Online: the app's connection is still open, with recent writes possibly only in the WAL.
    const out = dirs.make('afterglow-backup-');
    await backup({ dataDir: app.scratch.dataDir, databaseUrl: app.scratch.env.DATABASE_URL, out });

    const freshDir = dirs.make('afterglow-restore-');
    target = dialect === 'postgres' ? await createScratchDatabase('postgres') : undefined;
    restore({ from: out, dataDir: freshDir, databaseUrl: target?.env.DATABASE_URL });

    const restored = createDatabase({ databaseUrl: target?.env.DATABASE_URL, sqlitePath: path.join(freshDir, 'afterglow.db') });
    try {
      expect(await counts(restored.db)).toEqual(before);
      const photos = await restored.db.selectFrom('blogs').select('photo').execute();
      const missing = photos.filter((p) => !existsSync(path.join(freshDir, p.photo!)));
      expect(missing).toEqual([]);
      expect(existsSync(path.join(freshDir, 'session-secret'))).toBe(true);
    } finally {
      await restored.close();
    }
  });

  it('refuses to overwrite existing data without --force', async () => {
    app = await createTestApp(dialect);
    const out = dirs.make('afterglow-backup-');
    await backup({ dataDir: app.scratch.dataDir, databaseUrl: app.scratch.env.DATABASE_URL, out });
    if (dialect === 'sqlite') expect(() => restore({ from: out, dataDir: app!.scratch.dataDir })).toThrow(/exists: pass --force/);
    expect(() => restore({ from: dirs.make('afterglow-empty-'), dataDir: app!.scratch.dataDir })).toThrow(/not a backup/);
  });
});
