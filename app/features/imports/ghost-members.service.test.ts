import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ghostMembersCsv, knownMembers } from '#test/archives/ghost-members';
import { TEST_DIALECTS } from '#test/dialects';
import { type LocalSmtpServer, mailText, startSmtpServer } from '#test/smtp-server';
import { tempDirs } from '#test/temp-dirs';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { createMailSender } from '#server/jobs/mail-sender.server';
import { confirmSubscription, subscribe } from '~/features/newsletter/newsletter.service.server';
import { confirmImport, getImportRun, startImport } from './import-runs.service.server';

const PUBLIC_URL = 'https://afterglow.example.test';
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const COMING = ['reader.one@old.example', 'patron@old.example', 'formula@old.example'];
const OUT = ['left@old.example', 'gone@old.example'];

/**
 * Ghost's members export imported on its own (docs/decisions/090), on both databases, with a real
 * SMTP server: the members Ghost mails come as pending subscribers, each sent our confirmation
 * mail (double opt-in); those it does not mail stay out; the operator's `consented` confirms them.
 */
describe.each(TEST_DIALECTS)('Ghost members imported on %s', (dialect) => {
  let t: TestApp;
  let smtp: LocalSmtpServer;
  let writer: TestUser;
  let dir: string;
  const db = () => t.deps.database.db;
  const subscribers = async (emails: string[]) =>
    Object.fromEntries((await db().selectFrom('subscribers').select(['email', 'confirmed_at']).where('email', 'in', emails).execute()).map((r) => [r.email, r.confirmed_at !== null]));
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'Afterglow <site@afterglow.example.test>', MAIL_RATE_PER_MINUTE: '6000' });
    writer = await t.createUser({ name: 'Gwen Moving' });
    dir = dirs.make('members-');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('shows how many come and how many stay out, then makes those Ghost mails pending, each confirming through a mail that tells the move', async () => {
    const file = path.join(dir, 'members.2024-11-20.csv');
    await writeFile(file, ghostMembersCsv(knownMembers()));
    const { runId } = await startImport(t.context(writer.user), { fileName: 'members.2024-11-20.csv', filePath: file, keepFile: true });
    await t.runJobs();
    const review = await getImportRun(t.context(writer.user), runId);
    expect(review).toMatchObject({ status: 'review', total: 5, scan: { source: 'ghost', posts: 0, subscribers: 5, subscribersOut: 2, categoryMapping: {} } });
    expect(await subscribers([...COMING, ...OUT])).toEqual({});

    await confirmImport(t.context(writer.user), runId, {});
    // At the real time: the confirmations are queued then, and the send queue's worker (on the real clock) finds them due.
    await t.runJobs(new Date());
    const done = await getImportRun(t.context(writer.user), runId);
    expect(done.status).toBe('done');
    expect(done.report!.subscribers).toEqual({ pending: 3, confirmed: 0, existing: 0, skipped: 2 });
    expect(done.report!.skipped).toEqual([
      { item: 'subscriber “not-an-address” in members.2024-11-20.csv', reason: 'not an email address' },
      { item: 'subscriber left@old.example', reason: 'unsubscribed at the source' },
      { item: 'subscriber gone@old.example', reason: 'deleted at the source' },
    ]);
    expect(await subscribers([...COMING, ...OUT])).toEqual(Object.fromEntries(COMING.map((email) => [email, false])));

    // Each pending subscriber is sent our confirmation, by the send queue's worker through the real SMTP server; the link confirms her.
    const sender = createMailSender(t.deps);
    expect((await sender.runBatch()).sent).toBe(COMING.length);
    sender.close();
    for (const email of COMING) await smtp.waitForMail(email);
    for (const email of OUT) expect(mailsTo(email)).toEqual([]);
    // Nobody asked for it here: the mail tells who moved the newsletter from where, and that ignoring it changes nothing.
    const text = mailText(mailsTo('reader.one@old.example')[0]!.raw);
    const site = t.deps.config.SITE_NAME;
    expect(text).toContain(`Subject: Your newsletter from Ghost has moved to ${site}`);
    expect(text).toContain(`Gwen Moving moved their newsletter here, to ${site}, from Ghost, and your address came with it.`);
    expect(text).toContain('Keep receiving it');
    expect(text).toContain('If you ignore this mail, nothing happens: nothing more will be sent to you.');
    expect(text).not.toContain('hopefully you');
    const token = new RegExp(`Confirm to keep receiving it: ${PUBLIC_URL}/mail/confirm/(\\S+)`).exec(text)![1]!;
    // What the link's page does (routes/mail-confirm.tsx).
    expect(await confirmSubscription(t.context(null), t.deps.config.SESSION_SECRET, token)).toMatchObject({ email: 'reader.one@old.example' });
    expect(await subscribers(COMING)).toEqual({ 'reader.one@old.example': true, 'patron@old.example': false, 'formula@old.example': false });

    // A reader signing up here meanwhile gets the newsletter's own words, and the same kind of link.
    await subscribe(t.context(null), { email: 'signed.up@new.example' });
    await t.runJobs(new Date());
    const again = createMailSender(t.deps);
    expect((await again.runBatch()).sent).toBe(1);
    again.close();
    const own = mailText((await smtp.waitForMail('signed.up@new.example')).raw);
    expect(own).toContain(`Subject: Confirm your subscription to ${site}`);
    expect(own).toContain(`Someone, hopefully you, asked for the ${site} newsletter at this address.`);
    expect(own).not.toContain('moved their newsletter');
    const ownToken = new RegExp(`Confirm it: ${PUBLIC_URL}/mail/confirm/(\\S+)`).exec(own)![1]!;
    expect(await confirmSubscription(t.context(null), t.deps.config.SESSION_SECRET, ownToken)).toMatchObject({ email: 'signed.up@new.example' });
  });

  it('confirms them without a mail when the operator states they consented; one already here is left as she is', async () => {
    const file = path.join(dir, 'members.2024-11-21.csv');
    await writeFile(file, ghostMembersCsv([{ email: 'agreed@old.example', subscribed_to_emails: 'true' }, { email: 'patron@old.example', subscribed_to_emails: 'true' }]));
    const mails = smtp.mails.length;
    const { runId } = await startImport(t.context(writer.user), { fileName: 'members.2024-11-21.csv', filePath: file, keepFile: true, confirmed: true, options: { consented: true } });
    await t.runJobs();
    const done = await getImportRun(t.context(writer.user), runId);
    expect(done.report!.subscribers).toEqual({ pending: 0, confirmed: 1, existing: 1, skipped: 0 });
    expect(await subscribers(['agreed@old.example', 'patron@old.example'])).toEqual({ 'agreed@old.example': true, 'patron@old.example': false });
    await t.runJobs();
    const sender = createMailSender(t.deps);
    expect((await sender.runBatch()).claimed).toBe(0);
    sender.close();
    expect(smtp.mails.length).toBe(mails);
  });
});
