import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/server';
import { type MailSite, queueCounts, readMail, startMailSite, waitFor } from '../support/mail-site';

const SUBSCRIBERS = 1000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances sharing PostgreSQL', () => {
  let site: MailSite | undefined;
  let second: RunningServer | undefined;
  afterEach(async () => {
    await second?.stop();
    await site?.close();
    site = second = undefined;
  });

  it(`send one batch of ${SUBSCRIBERS} with no duplicates`, async () => {
    site = await startMailSite('postgres', {}, { MAIL_RATE_PER_MINUTE: '60000' });
    second = await site.start();
    await site.seedSubscribers(Array.from({ length: SUBSCRIBERS }, (_, i) => `dusk${i}@example.com`), true);
    await site.publish('Two suns');
    await waitFor(`${SUBSCRIBERS} mails`, () => site!.smtp.mails.length >= SUBSCRIBERS);
    await site.waitForQueueEmpty();

    const mails = await Promise.all(site.smtp.mails.map((m) => readMail(m.raw, m.to[0]!)));
    const messageIds = new Set(mails.map((m) => m.messageId));
    const recipients = new Set(mails.map((m) => m.to));
    const workers = await site.db.selectFrom('mail_queue').select('claimed_by').distinct().execute();
    const counts = await queueCounts(site.db);
    console.log(
      `mail two instances (postgres): ${SUBSCRIBERS} subscribers, ${mails.length} sent, ${recipients.size} recipients, ` +
        `${mails.length - messageIds.size} duplicates, ${workers.length} workers sent, queue ${JSON.stringify(counts)}`,
    );
    expect(mails).toHaveLength(SUBSCRIBERS);
    expect(messageIds.size).toBe(SUBSCRIBERS);
    expect(recipients.size).toBe(SUBSCRIBERS);
    expect(counts).toEqual({ sent: SUBSCRIBERS });
  });
});
