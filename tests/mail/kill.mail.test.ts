import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { type MailSite, queueCounts, readMail, startMailSite, waitFor } from '../support/mail-site';

const SUBSCRIBERS = 500;
const KILL_AT = 150;

describe.each(TEST_DIALECTS)('the send queue survives kill -9 on %s', (dialect) => {
  let site: MailSite | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it(`every confirmed subscriber gets the post exactly once after a kill -9 mid-batch (${SUBSCRIBERS} subscribers)`, async () => {
    // Slow enough (about 3 s for the lot) that the kill lands with a batch under way.
    site = await startMailSite(dialect, {}, { MAIL_RATE_PER_MINUTE: '10000' });
    const emails = Array.from({ length: SUBSCRIBERS }, (_, i) => `evening${i}@example.com`);
    await site.seedSubscribers(emails, true);
    await site.publish('Blue hour');
    await waitFor(`${KILL_AT} mails`, () => site!.smtp.mails.length >= KILL_AT);
    await site.server.signal('SIGKILL');
    const atKill = site.smtp.mails.length;
    const claimedAtKill = await site.db.selectFrom('mail_queue').select('id').where('status', '=', 'sending').execute();

    site.server = await site.start();
    await site.waitForQueueEmpty(60_000);

    // The unique send log: what arrived, keyed by the Message-ID the queue fixed per recipient.
    const mails = await Promise.all(site.smtp.mails.map((m) => readMail(m.raw, m.to[0]!)));
    const log = new Map<string, { to: string; arrivals: number }>();
    for (const m of mails) {
      const entry = log.get(m.messageId);
      if (entry) entry.arrivals++;
      else log.set(m.messageId, { to: m.to, arrivals: 1 });
    }
    const perRecipient = new Map<string, number>();
    for (const { to } of log.values()) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    const repeatedArrivals = mails.length - log.size;
    const counts = await queueCounts(site.db);
    console.log(
      `mail kill -9 (${dialect}): ${SUBSCRIBERS} subscribers, killed after ${atKill} mails with ${claimedAtKill.length} rows claimed, ` +
        `${mails.length} arrivals, ${log.size} distinct Message-IDs, ${perRecipient.size} recipients, ` +
        `${[...perRecipient.values()].filter((n) => n !== 1).length} recipients with other than one message, ` +
        `${repeatedArrivals} repeated arrivals (same Message-ID), queue ${JSON.stringify(counts)}`,
    );
    expect(claimedAtKill.length).toBeGreaterThan(0);
    expect([...perRecipient.keys()].sort()).toEqual([...emails].sort());
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    // Only the mail in flight at the kill can arrive twice: accepted by the server, not yet recorded.
    expect(repeatedArrivals).toBeLessThanOrEqual(1);
    expect(counts).toEqual({ sent: SUBSCRIBERS });
  });
});
