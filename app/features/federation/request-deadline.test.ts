import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { tallies } from '~/lib/render/metrics.server';
import { circuitStates, deliveryTally } from './delivery-metrics.server';
import { addRemoteFollower } from './federation.service.server';
import { FEDERATION_REQUEST_TIMEOUT_MS } from './request-deadline.server';
import { TEST_DIALECTS } from '#test/dialects';
import { type ServedTestApp, serveTestApp } from '#test/fedi-instance';
import type { TestUser } from '#test/test-app';
import { PUBLIC_BLOG } from '#test/public-blog';

/** The bound here: short, so a test waits for it a few times, and long enough for a peer on loopback that answers. */
const TEST_BOUND_MS = 500;

/**
 * A peer that accepts the connection and never answers (docs/decisions/100): a plain TCP server
 * that holds every socket it is given. A delivery to it fails once the bound is over, as a
 * refused one does (counted as failed, retried later, counted by the circuit breaker), and a
 * delivery queued after it to a peer that answers goes then, while readers keep deliveries to one
 * at a time, instead of waiting for undici's five minutes.
 */
describe.each(TEST_DIALECTS)('a peer that never answers (%s)', (dialect) => {
  let site: ServedTestApp;
  let hung: TcpServer;
  let hungHost: string;
  const held = new Set<Socket>();
  let firstHeld: Promise<void>;
  let accepted = 0;
  let sink: Server;
  let sinkOrigin: string;
  /** Each delivery the answering peer got, with how many to the hung peer had failed by then. */
  const arrivals: { hungFailed: number }[] = [];
  let silent: TestUser;
  let answering: TestUser;

  const failedTo = (host: string) => deliveryTally.series().find((s) => s.host === host)?.counts.failed ?? 0;
  /** At the real time, a few rounds: each job queues the next (event, fan-out, delivery); a retry waits for its backoff. */
  const settle = async () => {
    for (let round = 0; round < 6; round++) await site.t.runJobs(new Date());
  };
  const follower = (origin: string, name: string) => ({ actorUri: `${origin}/users/${name}`, handle: `@${name}@${new URL(origin).host}`, inbox: `${origin}/users/${name}/inbox`, sharedInbox: null });

  beforeAll(async () => {
    // It reads the request (so it sees the connection end) and never writes a byte.
    hung = createTcpServer((socket) => {
      socket.resume();
      accepted++;
      held.add(socket);
      socket.on('close', () => held.delete(socket));
    });
    firstHeld = new Promise((resolve) => hung.once('connection', () => resolve()));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    hungHost = `127.0.0.1:${(hung.address() as { port: number }).port}`;
    sink = createServer((req: IncomingMessage, res) => {
      req.resume();
      req.on('end', () => {
        arrivals.push({ hungFailed: failedTo(hungHost) });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    sinkOrigin = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
    site = await serveTestApp(dialect, {}, { requestTimeoutMs: TEST_BOUND_MS });
    [silent, answering] = [await site.t.createUser({ name: 'Sil Silent' }), await site.t.createUser({ name: 'Ann Answered' })];
    await addRemoteFollower(site.t.context(null), silent.user.id, follower(`http://${hungHost}`, 'never'));
    await addRemoteFollower(site.t.context(null), answering.user.id, follower(sinkOrigin, 'prompt'));
  });
  afterAll(async () => {
    await site?.close();
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => hung?.close(() => resolve()));
    await new Promise<void>((resolve) => sink?.close(() => resolve()));
  });

  it('a delivery to it fails within the bound and waits for its retry; the one queued behind it goes then', async () => {
    expect(TEST_BOUND_MS).toBeLessThan(FEDERATION_REQUEST_TIMEOUT_MS);
    // Readers keep deliveries to one at a time (docs/decisions/094): the answered one waits behind the hung one.
    tallies.requests.answered += 1_000;
    const readers = setInterval(() => (tallies.requests.answered += 1_000), 20);
    try {
      await createBlog(site.t.context(silent.user), { ...PUBLIC_BLOG, title: 'To a server that never answers' } as never);
      const first = settle();
      await firstHeld;
      await createBlog(site.t.context(answering.user), { ...PUBLIC_BLOG, title: 'To a server that answers' } as never);
      await Promise.all([first, settle()]);
    } finally {
      clearInterval(readers);
    }
    // It arrived once the hung delivery had failed, not minutes later: both runs above ended.
    expect(arrivals).toEqual([{ hungFailed: 1 }]);
    // We closed the connection; the peer never did.
    await expect.poll(() => held.size).toBe(0);
    // Fedify queued the failed delivery again, for after its backoff.
    const queued = await site.t.deps.database.db.selectFrom('jobs').select(['payload', 'run_at', 'created_at']).where('kind', '=', 'federation:message').where('status', '=', 'queued').execute();
    const retries = queued.filter((j) => String(j.payload).includes(`"inbox":"http://${hungHost}/`));
    expect(retries).toHaveLength(1);
    expect(new Date(retries[0]!.run_at).getTime()).toBeGreaterThan(new Date(retries[0]!.created_at).getTime());
  });

  it('an activity signed with a key on it is refused once the fetch of that key is over the bound', async () => {
    const before = accepted;
    const body = JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', id: `http://${hungHost}/likes/1`, type: 'Like', actor: `http://${hungHost}/users/never`, object: `${site.origin}/` });
    const res = await site.t.request('/ap/inbox', {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/activity+json',
        date: new Date().toUTCString(),
        digest: `SHA-256=${createHash('sha256').update(body).digest('base64')}`,
        signature: `keyId="http://${hungHost}/users/never#main-key",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="c2lnbmF0dXJl"`,
      },
    });
    expect(res.status).toBe(401);
    // The key was asked for at the peer that never answers (once, or twice: Fedify knocks again on a failed fetch).
    expect(accepted).toBeGreaterThan(before);
    await expect.poll(() => held.size).toBe(0);
  });

  it('each timed-out delivery counts towards its host’s circuit, which opens after five', async () => {
    for (let i = 0; i < 4; i++) {
      await createBlog(site.t.context(silent.user), { ...PUBLIC_BLOG, title: `Never answered ${i}` } as never);
      await settle();
    }
    // Five posts, five attempts at least (a retry whose backoff ended meanwhile is one more).
    expect(failedTo(hungHost)).toBeGreaterThanOrEqual(5);
    const circuits = await circuitStates(site.t.context(null));
    expect(circuits.get(hungHost)).toBe('open');
    expect(circuits.get(new URL(sinkOrigin).host) ?? 'closed').toBe('closed');
  });
});
