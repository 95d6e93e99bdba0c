import type { Socket } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import type { TestUser } from '#test/test-app';
import { useTestApp } from '#test/dialects';
import { addComment, createBlog, likeBlog } from '~/features/blogs/blogs.service.server';
import { followWriter } from '~/features/follows/follows.service.server';
import { readCurrentVersions } from './content-version.server';
import { createDatabase, type DatabaseHandle } from './kysely.server';
import type { VersionListener } from './version-listener.server';

const BLOG = {
  title: 'Lamps on the quay',
  category: 'Travelling & Photography',
  type: 'Mini blog',
  short_description: 'The harbour after dark.',
  long_description: 'One lamp, then the next.',
  availability: 'Public',
  photo: '/uploads/quay.webp',
} as const;

const silent = pino({ level: 'silent' });
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits (up to `ms`) until `check` holds; returns how long it took. */
async function until(check: () => boolean, ms: number, what: string): Promise<number> {
  const start = performance.now();
  while (!check()) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await turn();
  }
  return performance.now() - start;
}

/** Counts the version queries `database` sends to its pool while `body` runs. */
async function countingQueries<T>(database: DatabaseHandle, body: () => Promise<T>): Promise<{ result: T; queries: number }> {
  const pool = database.pgPool!;
  const query = pool.query;
  let queries = 0;
  pool.query = ((...args: Parameters<typeof pool.query>) => ((queries += 1), query.apply(pool, args))) as typeof pool.query;
  try {
    return { result: await body(), queries };
  } finally {
    pool.query = query;
  }
}

/** The listening connection's socket: a test pauses it to hold notifications back. */
const listenerSocket = (listener: VersionListener) => (listener as unknown as { client: { connection: { stream: Socket } } }).client.connection.stream;

/**
 * Decision 044: on PostgreSQL each instance answers kept reads from what LISTEN told it, with the
 * three rules that keep that right: its own writes are seen at once, another instance's as soon
 * as their notification arrives, and nothing is answered from memory while the connection is down.
 */
describe.runIf(TEST_DIALECTS.includes('postgres'))('version listener on postgres', () => {
  const t = useTestApp('postgres');
  let owner: TestUser;
  let readers: TestUser[];
  const listener = () => t.deps.database.versionListener!;
  /** The same read through the query alone. */
  const queried = (id: string | null) => readCurrentVersions({ ...t.deps.database, versionListener: undefined }, id);

  beforeAll(async () => {
    owner = await t.createUser();
    readers = [];
    for (let i = 0; i < 4; i++) readers.push(await t.createUser());
  });

  it('answers kept reads from memory, with the values the query gives', async () => {
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG });
    await likeBlog(t.context(readers[0]!.user), insertedId);
    await until(() => listener().answering, 5_000, 'the listener answers');
    await readCurrentVersions(t.deps.database, insertedId);
    const { result, queries } = await countingQueries(t.deps.database, async () => {
      const answers = [];
      for (let i = 0; i < 200; i++) answers.push(await readCurrentVersions(t.deps.database, i % 2 ? insertedId : null));
      return answers;
    });
    expect(queries).toBe(0);
    expect(result[1]).toEqual(await queried(insertedId));
    expect(result[0]).toEqual(await queried(null));
    expect((await readCurrentVersions(t.deps.database, 'no-such-blog')).blog).toBeNull();
  });

  it('sees its own like, comment and edit at the very next read, even while its notifications are held back', async () => {
    const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Held back' });
    await until(() => listener().answering, 5_000, 'the listener answers');
    const before = await readCurrentVersions(t.deps.database, insertedId);
    expect(listener().answer(insertedId)).toEqual(before);
    const socket = listenerSocket(listener());
    socket.pause();
    try {
      const writes = [
        () => likeBlog(t.context(readers[1]!.user), insertedId),
        () => addComment(t.context(readers[2]!.user), insertedId, { commentText: 'Still lit.' }),
        () => t.deps.database.db.updateTable('blogs').set({ title: 'Held back, retitled' }).where('id', '=', insertedId).execute(),
      ];
      let last = before;
      for (const write of writes) {
        await write();
        // Nothing from memory until the write's notification is in; the query sees the write.
        expect(listener().answer(insertedId)).toBeUndefined();
        const next = await readCurrentVersions(t.deps.database, insertedId);
        expect(next.blog).toBeGreaterThan(last.blog!);
        last = next;
      }
      expect(last.lists).toBeGreaterThan(before.lists);
    } finally {
      socket.resume();
    }
    await until(() => listener().answering, 5_000, 'the listener answers again');
    expect(listener().answer(insertedId)).toEqual(await queried(insertedId));
  });

  describe('with a second instance', () => {
    let second: DatabaseHandle;
    beforeAll(() => {
      second = createDatabase({ databaseUrl: t.scratch.env.DATABASE_URL });
      second.versionListener!.start(silent);
    });
    afterAll(async () => {
      const pid = second.versionListener!.backendPid;
      await second.close();
      // Closed with its handle: no listening connection left behind.
      const left = await t.deps.database.pgPool!.query('select count(*)::int as n from pg_stat_activity where pid = $1', [pid]);
      expect(left.rows[0].n).toBe(0);
    });

    it('sees a like and a new blog made on the first as soon as their notifications arrive, with no query', async () => {
      const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Across' });
      await until(() => second.versionListener!.answering, 5_000, 'the second listener answers');
      const before = await readCurrentVersions(second, insertedId);
      const delays: number[] = [];
      for (const [i, reader] of readers.entries()) {
        const { queries } = await countingQueries(second, async () => {
          await likeBlog(t.context(reader.user), insertedId);
          const revision = before.blog! + i + 1;
          delays.push(await until(() => second.versionListener!.answer(insertedId)?.blog === revision, 1_000, 'the like is seen on the second instance'));
        });
        expect(queries).toBe(0);
        expect(await readCurrentVersions(second, insertedId)).toEqual(await queried(insertedId));
      }
      expect((await readCurrentVersions(second, insertedId)).blog).toBe(before.blog! + readers.length);
      await createBlog(t.context(owner.user), { ...BLOG, title: 'Listed' });
      const { lists } = await queried(null);
      await until(() => second.versionListener!.answer(null)?.lists === lists, 1_000, 'the new blog moves the lists version on the second instance');
      console.log(`version listener: a like on one instance seen by the other after ${delays.map((d) => d.toFixed(1)).join(', ')} ms`);
    });

    it("hears a writer's version move when one of her posts comes, changes hands or goes, with no query (decision 093)", async () => {
      const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Her page' });
      await until(() => second.versionListener!.answering, 5_000, 'the second listener answers');
      const before = await readCurrentVersions(second, insertedId);
      let queriedWriter: number | null = null;
      const heard = (what: string) => until(() => second.versionListener!.answer(insertedId)?.writer === queriedWriter, 1_000, what);
      const { queries } = await countingQueries(second, async () => {
        const { insertedId: newer } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Her next' });
        queriedWriter = (await queried(insertedId)).writer;
        expect(queriedWriter).toBeGreaterThan(before.writer!);
        await heard('the new post moves her version on the second instance');
        // Her page's own revision stands: only her one version moved.
        expect(second.versionListener!.answer(insertedId)?.blog).toBe(before.blog);
        // Handed to another writer: both writers' versions move.
        await t.deps.database.db.updateTable('blogs').set({ owner_id: readers[0]!.user.id }).where('id', '=', newer).execute();
        queriedWriter = (await queried(insertedId)).writer;
        expect(queriedWriter).toBeGreaterThan(before.writer! + 1);
        await heard('the post changing hands moves her version');
      });
      expect(queries).toBe(0);
      expect(await readCurrentVersions(second, insertedId)).toEqual(await queried(insertedId));
    });

    it('hears whose own rows a write touched, and any other write as everyone’s (decision 076)', async () => {
      await until(() => second.versionListener!.answering, 5_000, 'the second listener answers');
      const viewer = second.viewerChanges;
      const [follower, bystander] = [readers[0]!.user.id, readers[1]!.user.id];
      const all = viewer.all;
      const [followers, bystanders] = [viewer.of(follower), viewer.of(bystander)];
      await followWriter(t.context(readers[0]!.user), owner.user.id);
      await until(() => viewer.of(follower) > followers, 1_000, 'the follow is heard as the follower’s');
      expect(viewer.of(bystander), 'another reader’s pages stand').toBe(bystanders);
      expect(viewer.all, 'no one else’s pages').toBe(all);
      // A shown name is on anyone's page: everyone's kept pages go.
      await t.deps.database.db.updateTable('profiles').set({ name: 'Renamed Reader' }).where('user_id', '=', bystander).execute();
      await until(() => viewer.all > all, 1_000, 'a profile change is heard as everyone’s');
    });

    it('asks the database while its listening connection is cut, and forgets what it knew until it is back', async () => {
      const { insertedId } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Cut' });
      // Known before the cut and not read again until the listener is back: it must have been forgotten.
      const { insertedId: untouched } = await createBlog(t.context(owner.user), { ...BLOG, title: 'Untouched' });
      const listening = second.versionListener!;
      await until(() => listening.answering, 5_000, 'the second listener answers');
      await readCurrentVersions(second, insertedId);
      await readCurrentVersions(second, untouched);
      expect(listening.answer(insertedId)).toBeDefined();
      expect(listening.answer(untouched)).toBeDefined();
      const pid = listening.backendPid;
      const heard = second.viewerChanges.all;
      await t.deps.database.pgPool!.query('select pg_terminate_backend($1)', [pid]);
      const noticed = await until(() => !listening.answering, 10_000, 'the cut is noticed');
      // What it may have missed empties every kept signed-in page.
      await until(() => second.viewerChanges.all > heard, 10_000, 'the loss empties every kept signed-in page');
      // A write by another connection while it is down (or just back, on a loaded machine): seen
      // through the query, never from what was known before the cut.
      const outside = new pg.Client({ connectionString: t.scratch.env.DATABASE_URL });
      await outside.connect();
      try {
        await outside.query('update blogs set title = $1 where id = $2', ['Cut, retitled', insertedId]);
      } finally {
        await outside.end();
      }
      const fresh = await queried(insertedId);
      expect(await readCurrentVersions(second, insertedId)).toEqual(fresh);
      const back = await until(() => listening.answering, 15_000, 'the listener is back');
      expect(listening.backendPid).not.toBe(pid);
      // Everything was forgotten: a blog is read once more, then kept again.
      expect(listening.answer(untouched)).toBeUndefined();
      const kept = await queried(untouched);
      const { queries } = await countingQueries(second, async () => {
        expect(await readCurrentVersions(second, untouched)).toEqual(kept);
        expect(await readCurrentVersions(second, untouched)).toEqual(kept);
      });
      expect(queries).toBe(1);
      console.log(`version listener: a cut connection noticed after ${noticed.toFixed(1)} ms, listening again ${back.toFixed(0)} ms later`);
    });
  });
});
