import { createServer } from 'node:net';
import { Follow } from '@fedify/vocab';
import { describe, expect, it } from 'vitest';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { TEST_DIALECTS } from '#test/dialects';
import { useServedAppAndPeer } from '#test/fedi-instance';
import { PUBLIC_BLOG } from '#test/public-blog';
import { addRemoteFollower } from './federation.service.server';
import { DeliveryTally, OTHER_HOSTS } from './delivery-metrics.server';

/** One series' value from the text format; undefined when the series is absent. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** A loopback port nobody listens on any more: deliveries there are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the deliveries tally', () => {
  it('names the busiest hosts and counts the rest as other, however many hosts there are; every series only grows', () => {
    const tally = new DeliveryTally({ shown: 3, tracked: 10 });
    // One busy host, then a crowd of hosts with a delivery each.
    for (let i = 0; i < 50; i++) tally.record('busy.example', 'sent');
    for (let i = 0; i < 200; i++) tally.record(`made-up-${i}.example`, 'failed');
    // The first three hosts took the free names at once; the rest went to other.
    const first = tally.series();
    expect(first.length).toBeLessThanOrEqual(4);
    expect(first.find((s) => s.host === 'busy.example')?.counts).toEqual({ sent: 50, failed: 0, abandoned: 0 });
    expect(first.at(-1)).toEqual({ host: OTHER_HOSTS, counts: { sent: 0, failed: 198, abandoned: 0 } });
    // The busy host keeps counting under its own name.
    tally.record('busy.example', 'sent');
    tally.record('busy.example', 'abandoned');
    tally.record('made-up-999.example', 'failed');
    const second = tally.series();
    expect(second.length).toBeLessThanOrEqual(4);
    expect(second.find((s) => s.host === 'busy.example')?.counts).toEqual({ sent: 51, failed: 0, abandoned: 1 });
    expect(second.at(-1)!.counts).toEqual({ sent: 0, failed: 199, abandoned: 0 });
    // A host that grows past the others takes a name; one that falls out leaves its name, never a smaller number.
    for (let i = 0; i < 100; i++) tally.record('newcomer.example', 'sent');
    const third = tally.series();
    expect(third.map((s) => s.host)).toEqual(expect.arrayContaining(['busy.example', 'newcomer.example', OTHER_HOSTS]));
    expect(third.length).toBeLessThanOrEqual(4);
    const other = (s: typeof third) => s.find((x) => x.host === OTHER_HOSTS)!.counts;
    expect(other(third).sent).toBeGreaterThanOrEqual(other(second).sent);
    expect(other(third).failed).toBeGreaterThanOrEqual(other(second).failed);
  });
});

describe.each(TEST_DIALECTS)('/metrics counts deliveries per remote host (%s)', (dialect) => {
  const pair = useServedAppAndPeer(dialect);

  it('sent to a peer that answers, failed to one that is gone, and its circuit opened after five failures', async () => {
    const [site, peer] = [pair.site(), pair.peer()];
    const writer = await site.t.createUser({ name: 'Counted Writer' });
    const writerUri = new URL(`/ap/actors/${writer.user.id}`, site.origin);
    const ctx = peer.federation.createContext(new URL(peer.origin), undefined);
    await ctx.sendActivity({ identifier: 'reader' }, { id: writerUri, inboxId: new URL(`${writerUri.href}/inbox`) }, new Follow({ id: new URL('#follow-counted', peer.actorUri('reader')), actor: peer.actorUri('reader'), object: writerUri }));
    await site.t.runJobs();
    const gone = `127.0.0.1:${await deadPort()}`;
    await addRemoteFollower(site.t.context(null), writer.user.id, { actorUri: `http://${gone}/users/ghost`, handle: `@ghost@${gone}`, inbox: `http://${gone}/users/ghost/inbox`, sharedInbox: null });
    const peerHost = new URL(peer.origin).host;

    const scrape = async () => {
      const res = await site.t.request('/metrics');
      expect(res.status).toBe(200);
      return res.text();
    };
    // At the real time, a few rounds (each job queues the next: event, delivery, fan-out, one per
    // inbox): a failed delivery's retry waits for its backoff, as it would in a running site.
    const settle = async () => {
      for (let round = 0; round < 6; round++) await site.t.runJobs(new Date());
    };
    const before = await scrape();
    const sentBefore = value(before, `afterglow_federation_deliveries_total{host="${peerHost}",outcome="sent"}`) ?? 0;
    for (let i = 0; i < 5; i++) {
      await createBlog(site.t.context(writer.user), { ...PUBLIC_BLOG, title: `Counted ${i}` } as never);
      await settle();
    }
    const after = await scrape();
    // Both hosts are among the busiest of this process, so each has its own series.
    expect(value(after, `afterglow_federation_deliveries_total{host="${peerHost}",outcome="sent"}`)).toBe(sentBefore + 5);
    expect(value(after, `afterglow_federation_deliveries_total{host="${gone}",outcome="failed"}`) ?? 0).toBeGreaterThanOrEqual(1);
    expect(value(after, 'afterglow_federation_circuits{state="open"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, `afterglow_federation_circuit_state{host="${gone}"}`)).toBe(2);
    expect(value(after, `afterglow_federation_circuit_state{host="${peerHost}"}`)).toBe(0);
    // Never more host series than the busiest and other.
    const hosts = new Set(after.split('\n').filter((l) => l.startsWith('afterglow_federation_deliveries_total{')).map((l) => /host="([^"]*)"/.exec(l)![1]));
    expect(hosts.size).toBeLessThanOrEqual(21);
  });
});
