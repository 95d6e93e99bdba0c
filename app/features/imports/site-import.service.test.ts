import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeZip } from '#test/archives';
import { TEST_DIALECTS } from '#test/dialects';
import { siteGhostArchive } from '#test/site-import-archives';
import { ghostMembersCsv } from '#test/archives/ghost-members';
import { type LocalSmtpServer, mailText, startSmtpServer } from '#test/smtp-server';
import { tempDirs } from '#test/temp-dirs';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { createMailSender } from '#server/jobs/mail-sender.server';
import { setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { confirmSiteImport, getImportRun, getSiteImportRun, listMyImports, startImport, startSiteImport } from './import-runs.service.server';

const PUBLIC_URL = 'https://afterglow.example.test';
const dirs = tempDirs();
afterAll(() => dirs.removeAll());

const GWEN = { id: 'author-gwen', name: 'Gwen Ghost', email: 'gwen@old.example' };
const HAL = { id: 'author-hal', name: 'Hal Harbour', email: 'hal@old.example' };

/** An admin's whole-site import (docs/decisions/083) on both databases, with a real SMTP server for the claim mail. */
describe.each(TEST_DIALECTS)('a site import on %s', (dialect) => {
  let t: TestApp;
  let smtp: LocalSmtpServer;
  let admin: TestUser;
  let gwen: TestUser;
  let file: string;
  let titlesBy: Record<string, string[]>;
  const db = () => t.deps.database.db;
  const titlesOf = async (userId: string) => (await db().selectFrom('blogs').select('title').where('owner_id', '=', userId).execute()).map((r) => r.title).sort();
  const accounts = async () => (await db().selectFrom('user').select('id').execute()).length;
  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp(dialect, { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: 'Afterglow <site@afterglow.example.test>', SPAM_HOLD_DAYS: '7' });
    admin = await t.createUser({ name: 'Ada Admin' });
    await setAdminByOperator(t.context(null), admin.user.email, true);
    gwen = await t.createUser({ name: 'Gwen Here', email: GWEN.email });
    const archive = await siteGhostArchive(10, [GWEN, HAL], { idPrefix: `site-${dialect}-` });
    titlesBy = archive.titlesBy;
    file = await writeZip(dirs.make('site-'), 'site.zip', archive.members);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
  });

  it('refuses a writer who is not an admin, before anything is read or written', async () => {
    const writer = await t.createUser({ name: 'Wanda Writer' });
    await expect(startSiteImport(t.context(writer.user), { fileName: 'site.zip', filePath: file, keepFile: true })).rejects.toMatchObject({ status: 403 });
    await expect(startSiteImport(t.context(null), { fileName: 'site.zip', filePath: file, keepFile: true })).rejects.toMatchObject({ status: 401 });
    expect(await db().selectFrom('import_runs').select('id').execute()).toEqual([]);
  });

  it('maps one author onto her account and makes one new, approved, passwordless account, mailed a single-use link to set a password', async () => {
    const { runId } = await startSiteImport(t.context(admin.user), { fileName: 'site.zip', filePath: file, keepFile: true });
    await t.runJobs();
    const review = await getSiteImportRun(t.context(admin.user), runId);
    expect(review.status).toBe('review');
    // Gwen's email has an account: that is her default; Hal has none: a new account.
    expect(review.scan!.siteAuthors).toEqual([
      { sourceId: GWEN.id, name: GWEN.name, email: GWEN.email, posts: 5, choice: { choice: 'account', email: GWEN.email }, account: { name: 'Gwen Here', email: GWEN.email } },
      { sourceId: HAL.id, name: HAL.name, email: HAL.email, posts: 5, choice: { choice: 'new' }, account: null },
    ]);
    // The run is the admins' screen's, not the admin's own writer screen's.
    await expect(getImportRun(t.context(admin.user), runId)).rejects.toMatchObject({ status: 404 });
    expect(await listMyImports(t.context(admin.user))).toEqual([]);
    // A choice that cannot be carried out is refused and nothing is queued.
    await expect(
      confirmSiteImport(t.context(admin.user), runId, { mapping: {}, authors: { [GWEN.id]: { choice: 'account', email: 'nobody@nowhere.example' }, [HAL.id]: { choice: 'new' } } }),
    ).rejects.toMatchObject({ status: 400, message: `No account has the email nobody@nowhere.example (for ${GWEN.name}).` });
    expect((await getSiteImportRun(t.context(admin.user), runId)).status).toBe('review');

    const before = await accounts();
    await confirmSiteImport(t.context(admin.user), runId, { mapping: {}, authors: { [GWEN.id]: { choice: 'account', email: GWEN.email }, [HAL.id]: { choice: 'new' } } });
    await t.runJobs();
    const done = await getSiteImportRun(t.context(admin.user), runId);
    expect(done.status).toBe('done');
    expect(done.report!.posts).toEqual({ imported: 10, unchanged: 0, skipped: 0 });
    expect(done.report!.authors).toEqual([
      { name: GWEN.name, posts: 5, outcome: 'existing', account: 'Gwen Here' },
      { name: HAL.name, posts: 5, outcome: 'new', account: HAL.name },
    ]);
    expect(await accounts()).toBe(before + 1);
    expect(await titlesOf(gwen.user.id)).toEqual([...titlesBy[GWEN.id]!].sort());
    const hal = await db().selectFrom('user').select(['id', 'name']).where('email', '=', HAL.email).executeTakeFirstOrThrow();
    expect(await titlesOf(hal.id)).toEqual([...titlesBy[HAL.id]!].sort());
    expect(await titlesOf(admin.user.id)).toEqual([]);
    // No password, approved by the admin (no spam hold on her own old posts), in the moderation log.
    expect(await db().selectFrom('account').select('id').where('userId', '=', hal.id).execute()).toEqual([]);
    expect(await db().selectFrom('account_approvals').select('approved_by').where('user_id', '=', hal.id).executeTakeFirst()).toEqual({ approved_by: admin.user.id });
    expect(await db().selectFrom('blogs').select('id').where('owner_id', '=', hal.id).where('held_until', 'is not', null).execute()).toEqual([]);

    // The claim mail, through the real SMTP server; none to the author mapped onto her own account.
    const mail = await smtp.waitForMail(HAL.email);
    expect(mailsTo(GWEN.email)).toEqual([]);
    const text = mailText(mail.raw);
    expect(text).toContain('Subject: Your posts are on Afterglow: set your password');
    const link = new RegExp(`${PUBLIC_URL}/api/auth/reset-password/\\S+`).exec(text)![0];
    const opened = await t.request(link.slice(PUBLIC_URL.length), { redirect: 'manual' });
    expect(opened.status).toBe(302);
    const token = new URL(opened.headers.get('location')!, PUBLIC_URL).searchParams.get('token')!;
    const set = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'Harbour123' } });
    expect(set.status).toBe(200);
    const signIn = await t.request('/api/auth/sign-in/email', { method: 'POST', json: { email: HAL.email, password: 'Harbour123' } });
    expect(signIn.status).toBe(200);
    // Single use.
    const again = await t.request('/api/auth/reset-password', { method: 'POST', json: { token, newPassword: 'Another123' } });
    expect(again.status).toBe(400);
  });

  it('a second run of the same archive changes nothing: the same authors map to the same accounts, no account is made, no mail sent', async () => {
    const before = await accounts();
    const mails = smtp.mails.length;
    const { runId } = await startSiteImport(t.context(admin.user), { fileName: 'site.zip', filePath: file, keepFile: true, confirmed: true, options: { unmatchedAuthors: 'new' } });
    await t.runJobs();
    const done = await getSiteImportRun(t.context(admin.user), runId);
    expect(done.status).toBe('done');
    expect(done.report!.posts).toEqual({ imported: 0, unchanged: 10, skipped: 0 });
    expect(done.report!.authors!.map((a) => [a.name, a.outcome, a.account])).toEqual([
      [GWEN.name, 'existing', 'Gwen Here'],
      [HAL.name, 'existing', HAL.name],
    ]);
    expect(await accounts()).toBe(before);
    expect(smtp.mails.length).toBe(mails);
  });

  it('mails the subscribers of a whole site that the old site moved its newsletter, not the admin who imported it (docs/decisions/095)', async () => {
    const archive = await siteGhostArchive(2, [GWEN, HAL], { idPrefix: `members-${dialect}-` });
    const json = JSON.parse(archive.members[0]!.body as string) as { db: [{ data: Record<string, unknown> }] };
    json.db[0].data.settings = [{ id: 's1', key: 'title', value: 'The Harbour\n Gazette', type: 'string' }];
    const members = [{ ...archive.members[0]!, body: JSON.stringify(json) }, ...archive.members.slice(1), { name: 'members.2024-11-20.csv', body: ghostMembersCsv([{ email: 'harbour.reader@old.example', subscribed_to_emails: 'true' }]) }];
    const { runId } = await startSiteImport(t.context(admin.user), { fileName: 'members.zip', filePath: await writeZip(dirs.make('site-'), 'members.zip', members), keepFile: true, confirmed: true, options: { unmatchedAuthors: 'new' } });
    // At the real time: the confirmation is queued then, and the send queue's worker (on the real clock) finds it due.
    await t.runJobs(new Date());
    expect((await getSiteImportRun(t.context(admin.user), runId)).report!.subscribers).toEqual({ pending: 1, confirmed: 0, existing: 0, skipped: 0 });
    const sender = createMailSender(t.deps);
    expect((await sender.runBatch()).sent).toBe(1);
    sender.close();
    const text = mailText((await smtp.waitForMail('harbour.reader@old.example')).raw);
    const site = t.deps.config.SITE_NAME;
    expect(text).toContain(`Subject: Your newsletter from The Harbour Gazette has moved to ${site}`);
    expect(text).toContain(`The Harbour Gazette moved its newsletter here, to ${site}, from Ghost, and your address came with it.`);
    expect(text).not.toContain('Ada Admin');
    expect(text).toContain(`Confirm to keep receiving it: ${PUBLIC_URL}/mail/confirm/`);
  });

  it('leaves out the posts of an author the admin skips, and a writer’s own import maps nobody', async () => {
    const archive = await siteGhostArchive(4, [GWEN, { ...HAL, id: 'author-ivo', name: 'Ivo Ink', email: 'ivo@old.example' }], { idPrefix: `skip-${dialect}-` });
    const skipFile = await writeZip(dirs.make('site-'), 'skip.zip', archive.members);
    const { runId } = await startSiteImport(t.context(admin.user), {
      fileName: 'skip.zip',
      filePath: skipFile,
      keepFile: true,
      confirmed: true,
      options: { authorChoices: { 'author-ivo': { choice: 'skip' } } },
    });
    await t.runJobs();
    const done = await getSiteImportRun(t.context(admin.user), runId);
    expect(done.report!.posts).toEqual({ imported: 2, unchanged: 0, skipped: 2 });
    expect(done.report!.skipped).toContainEqual({ item: archive.titlesBy['author-ivo']![0]!, reason: 'its author was left out of the import' });
    expect(await db().selectFrom('user').select('id').where('email', '=', 'ivo@old.example').execute()).toEqual([]);

    // A writer's import of a site's archive: everything is hers, whatever the archive's authors.
    const writer = await t.createUser({ name: 'Vera Own' });
    const own = await siteGhostArchive(4, [GWEN, HAL], { idPrefix: `own-${dialect}-` });
    const ownFile = await writeZip(dirs.make('site-'), 'own.zip', own.members);
    const mine = await startImport(t.context(writer.user), { fileName: 'own.zip', filePath: ownFile, keepFile: true, confirmed: true, options: { authors: { [GWEN.id]: gwen.user.id } } });
    await t.runJobs();
    expect((await getImportRun(t.context(writer.user), mine.runId)).report!.posts.imported).toBe(4);
    expect((await titlesOf(writer.user.id)).length).toBe(4);
  });
});
