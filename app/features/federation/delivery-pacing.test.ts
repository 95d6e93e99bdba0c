import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { tallies } from '~/lib/render/metrics.server';
import { BUSY_WINDOW_MS, CALM_AFTER_MS } from '~/kernel/readers-busy.server';
import { PACED_DELIVERIES } from './delivery-pacing.server';
import { FEDERATION_CONCURRENCY } from './federation-store.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

/**
 * Deliveries give way to readers (docs/decisions/089, 094): while the process answers requests
 * fast, one delivery at a time is under way, from the first requests on; when they calm, the
 * runner's full number go. A real inbox server on loopback holds each request a moment and
 * counts those in flight.
 */
describe.each(TEST_DIALECTS)('deliveries paced by the pages (%s)', (dialect) => {
  let site: ServedTestApp;
  let sink: Server;
  let sinkOrigin: string;
  let writer: TestUser;
  let inFlight = 0;
  let most = 0;
  let received = 0;

  beforeAll(async () => {
    sink = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      req.resume();
      req.on('end', () =>
        setTimeout(() => {
          inFlight--;
          received++;
          res.writeHead(202).end();
        }, 300),
      );
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkOrigin = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
    site = await serveTestApp(dialect);
    writer = await site.t.createUser({ name: 'Wren Writer' });
    // Ten followers, each with an inbox of its own: ten deliveries a post.
    const now = new Date().toISOString();
    await site.t.deps.database.db
      .insertInto('remote_followers')
      .values(Array.from({ length: 10 }, (_, k) => ({ id: `pace-${k}`, local_actor: writer.user.id, actor_uri: `${sinkOrigin}/users/r${k}`, handle: `@r${k}@sink`, inbox: `${sinkOrigin}/users/r${k}/inbox`, shared_inbox: null, created_at: now })))
      .execute();
  });
  afterAll(async () => {
    await site?.close();
    await new Promise<void>((resolve) => sink?.close(() => resolve()));
  });

  const deliverOnePost = async (title: string) => {
    most = 0;
    received = 0;
    await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title } as never);
    await site.t.runJobs();
    expect(received).toBe(10);
    return most;
  };

  it('sends one at a time as soon as requests come fast, and all the runner takes once they calm', async () => {
    // Requests answered in this process (as every request is counted), far over the busy rate,
    // starting just now: a burst is seen at once, not after a second of sampling.
    tallies.requests.answered += 1_000;
    const readers = setInterval(() => (tallies.requests.answered += 1_000), 20);
    try {
      expect(await deliverOnePost('While readers read')).toBe(PACED_DELIVERIES);
    } finally {
      clearInterval(readers);
    }
    await sleep(BUSY_WINDOW_MS + CALM_AFTER_MS + 250);
    expect(await deliverOnePost('After they left')).toBeGreaterThan(PACED_DELIVERIES);
    expect(most).toBeLessThanOrEqual(FEDERATION_CONCURRENCY);
  });
});
