import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase, TEST_DIALECTS } from '#test/databases';
import { countsFreshness } from '~/features/blogs/view-counter.server';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';
import { PUBLIC_BLOG } from '../support/public-blog';

/** COUNTS_MAX_AGE_S for this test: the rule is the same at 30 s, only the wait is shorter. */
const BOUND_S = 5;
/**
 * How long a change is waited for before the test gives up. The rules' own bounds (a moment, and
 * BOUND_S) are not asserted against the clock: on a loaded machine a read may take seconds, so
 * the test waits for what the page shows, with a bound far above either, and reports the time.
 */
const GIVE_UP_MS = 60_000;
/**
 * A kept copy older than this is rendered again at its next read, whatever was written (the counts'
 * bound less one flush of views, docs/decisions/024): about 4.2 s here. A MISS after a like proves
 * that the like made the copy stale only if the copy was younger than this when the MISS was answered.
 */
const KEPT_MS = countsFreshness(BOUND_S * 1000).keptMs;
/** Rounds (a like, then taking it back, …) tried for one whose reads all came back within KEPT_MS of their copies. */
const ROUNDS = 6;

/** Reads until `done` holds of the read or GIVE_UP_MS has passed; the last read and how many came before it. */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<{ value: T; ms: number; reads: number }> {
  const start = performance.now();
  let reads = 1;
  let value = await read();
  while (!done(value) && performance.now() - start < GIVE_UP_MS) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
    reads += 1;
  }
  return { value, ms: performance.now() - start, reads };
}

/**
 * The two freshness rules of docs/decisions/024, on the blog page as readers get it (the built server, two
 * processes on one database, each with its own page cache and view buffer): a like is seen at
 * once by its author and by anonymous readers of a kept page on the instance that took it, and on
 * the other instance as soon as it hears of it (on PostgreSQL, its notification: decision 044); a
 * view shows on the other instance's kept page within COUNTS_MAX_AGE_S (docs/decisions/024, 032).
 */
describe.each(TEST_DIALECTS)('freshness of a kept blog page on two instances on %s', (dialect) => {
  let scratch: ScratchDatabase;
  const servers: RunningServer[] = [];
  let blogId = '';
  let author: { cookie: string };
  let reader: { cookie: string };
  let likeSeenAfterMs = 0;
  let staleReads = 0;
  let rounds = 0;
  /**
   * When the copy each server keeps of the page was rendered (Date.now()): no earlier than the read
   * that made it was sent, no later than its answer came.
   */
  const rendered = new Map<RunningServer, { since: number; by: number }>();

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect);
    const env = { ...scratch.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', COUNTS_MAX_AGE_S: String(BOUND_S) };
    // One after the other: the first applies the migrations, the second finds them applied.
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const [a] = servers;
    author = await apiSession(a!.url, { email: `author-${Date.now()}@example.com`, name: 'Ada Author' });
    reader = await apiSession(a!.url, { email: `reader-${Date.now()}@example.com`, name: 'Rae Reader' });
    const created = await fetch(`${a!.url}/api/blogs`, {
      method: 'POST',
      headers: { cookie: author.cookie, origin: a!.url, 'content-type': 'application/json' },
      body: JSON.stringify(PUBLIC_BLOG),
    });
    blogId = ((await created.json()) as { insertedId: string }).insertedId;
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await scratch?.drop();
  });

  /** The blog page as a browser without JavaScript gets it, with the counts it shows and when it came. */
  const page = async (server: RunningServer, headers: Record<string, string> = {}) => {
    const sentAt = Date.now();
    const res = await fetch(`${server.url}/blogs/${blogId}`, { headers });
    const html = (await res.text()).replaceAll('<!-- -->', '');
    const answeredAt = Date.now();
    expect(res.status).toBe(200);
    const likes = /aria-label="Like \((\d+) likes?\)"/.exec(html)?.[1];
    const views = /(\d+) views?</.exec(html)?.[1];
    expect([likes, views], 'the page shows its like and view counts').not.toContain(undefined);
    const cache = res.headers.get('x-cache');
    if (cache === 'MISS') rendered.set(server, { since: sentAt, by: answeredAt });
    return { cache, likes: Number(likes), views: Number(views), answeredAt };
  };
  /**
   * The page from a copy the server keeps: read until a HIT. A copy older than KEPT_MS is rendered
   * again at its next read (decision 024), and on a loaded machine a render and a read or two can
   * take that long, so the read before may be a MISS; the HIT that follows is the copy it made.
   */
  const keptCopy = async (server: RunningServer) => {
    const { value } = await readUntil(() => page(server), (read) => read.cache === 'HIT');
    expect(value.cache, 'the page is kept').toBe('HIT');
    return value;
  };

  it('shows a like at once to anonymous readers of a kept page on its instance and to its author, and on the other instance as soon as it hears of it', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    // A kept copy that shows the new count after a like may have been rendered again for the like
    // or for its age (KEPT_MS), which a loaded machine reaches in a few reads. Each read below is
    // held to the rule either way; a round counts only when every copy it read was younger than
    // KEPT_MS, so that the like alone can have made it stale. Until one does (rarely more than the
    // first), the like is taken back and given again, each time on copies rendered anew.
    for (rounds = 1; rounds <= ROUNDS; rounds++) {
      const liking = rounds % 2 === 1;
      // Both copies rendered anew, side by side, so that the round's reads start as close to them
      // as they can: after the first round, once the last round's copies have aged out.
      const aged = Math.max(...servers.map((server) => (rendered.get(server)?.by ?? -Infinity) + KEPT_MS - Date.now()));
      if (aged > 0) await new Promise((r) => setTimeout(r, aged + 10));
      const authorSaw = (await page(b, { cookie: author.cookie })).likes;
      const [before, onABefore] = await Promise.all([keptCopy(b), keptCopy(a)]);
      expect(onABefore.likes).toBe(before.likes);
      expect(authorSaw).toBe(before.likes);
      const copies = { a: rendered.get(a)!.since, b: rendered.get(b)!.since };

      const liked = await fetch(`${a.url}/api/blogs/liked/${blogId}`, { method: liking ? 'PATCH' : 'DELETE', headers: { cookie: reader.cookie, origin: a.url, 'content-type': 'application/json' }, body: '{}' });
      expect(await liked.json()).toEqual({ modifiedCount: 1 });
      const likes = before.likes + (liking ? 1 : -1);

      // The instance that wrote shows it at the very next read, strictly.
      const onA = await page(a);
      expect(onA).toMatchObject({ cache: 'MISS', likes });
      // The other learns of it by its database's notification on PostgreSQL (docs/decisions/044),
      // a moment after the like's answer: waited for. SQLite shares one file, so its first read shows it.
      const onB = await readUntil(() => page(b), (shown) => dialect === 'sqlite' || shown.likes !== before.likes);
      expect(onB.value).toMatchObject({ cache: 'MISS', likes });
      expect((await page(b, { cookie: author.cookie })).likes).toBe(likes);
      expect((await page(a, { cookie: author.cookie })).likes).toBe(likes);
      if (onA.answeredAt - copies.a < KEPT_MS && onB.value.answeredAt - copies.b < KEPT_MS) {
        likeSeenAfterMs = onB.ms;
        staleReads = onB.reads - 1;
        break;
      }
    }
    expect(rounds, `a round whose reads came back within ${KEPT_MS} ms of their kept copies' renders, in ${ROUNDS}`).toBeLessThanOrEqual(ROUNDS);
  });

  it(`shows a view counted on one instance on the other's kept page (COUNTS_MAX_AGE_S ${BOUND_S} s)`, async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const before = await keptCopy(b);

    const viewed = await fetch(`${a.url}/api/blogs/${blogId}/view`, { method: 'PATCH', headers: { origin: a.url, 'user-agent': `freshness-${dialect}` } });
    expect(await viewed.json()).toEqual({ modifiedCount: 1 });
    // Shown within BOUND_S by the rule; waited for far longer, so a slow machine cannot fail it.
    const shown = await readUntil(() => page(b), (read) => read.views === before.views + 1);
    expect(shown.value.views, 'the view was never shown').toBe(before.views + 1);
    const shownAfterMs = shown.ms;
    console.log(`freshness (${dialect}): a like shown at once on its instance, on the other after ${likeSeenAfterMs.toFixed(1)} ms (${staleReads} reads before it showed the old count; round ${rounds}, copies younger than ${KEPT_MS} ms); a view shown on the other instance after ${Math.round(shownAfterMs)} ms (bound ${BOUND_S} s)`);
  });
});
