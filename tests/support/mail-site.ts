import type { Kysely } from 'kysely';
import { type ParsedMail, simpleParser } from 'mailparser';
import { createDatabase, type DatabaseHandle } from '~/db/kysely.server';
import type { Database, DialectName } from '~/db/schema';
import { createScratchDatabase, type ScratchDatabase } from '#test/databases';
import { type RunningServer, startServer } from './server';
import { type LocalSmtpServer, type SmtpServerOptions, startSmtpServer } from './smtp-server';

/** The public origin the test sites claim: every link in a mail must start with it. */
export const PUBLIC_ORIGIN = 'https://afterglow.example.test';
/** The photo the test sites' posts carry: named as the image pipeline names what it stores, so mails show it. */
export const POST_PHOTO = '/uploads/0f8f3a52-5b3e-4c1d-9a7e-2d6c1b0e9f10-1600.webp';

/** Mail settings for tests: no throttling to speak of, quick retries and leases. */
export const FAST_MAIL = { MAIL_RATE_PER_MINUTE: '600000', MAIL_RETRY_SECONDS: '1', MAIL_CLAIM_SECONDS: '3' };

export interface MailSite {
  /** The server process; a test that kills it and starts another puts the new one here. */
  server: RunningServer;
  smtp: LocalSmtpServer;
  db: Kysely<Database>;
  scratch: ScratchDatabase;
  writer: { token: string; id: string };
  /** Starts (again) a server process on the same database and DATA_DIR. */
  start(env?: Record<string, string>): Promise<RunningServer>;
  publish(title: string): Promise<string>;
  /** Inserts confirmed (or not) newsletter subscribers straight into the database. */
  seedSubscribers(emails: string[], confirmed: boolean): Promise<void>;
  /**
   * Waits until every background job due so far has run (a publish queues its mails from the
   * "blog.published" job) and no mail is queued or being sent (failed rows stay failed).
   */
  waitForQueueEmpty(timeoutMs?: number): Promise<void>;
  /** Fetches a path of the site with the public origin's Origin header (as a browser would). */
  signUp(email: string, name: string): Promise<{ token: string; cookie: string; id: string }>;
  close(): Promise<void>;
}

/** A real server process (the build) on a scratch database, sending to a real local SMTP server. */
export async function startMailSite(dialect: DialectName, smtpOptions: SmtpServerOptions = {}, env: Record<string, string> = {}): Promise<MailSite> {
  const smtp = await startSmtpServer(smtpOptions);
  const scratch = await createScratchDatabase(dialect);
  const serverEnv = { ...scratch.env, LOG_LEVEL: 'warn', SMTP_URL: smtp.url, PUBLIC_URL: PUBLIC_ORIGIN, MAIL_FROM: 'Afterglow <news@afterglow.example.test>', ...FAST_MAIL, ...env };
  const start = (more: Record<string, string> = {}) => startServer({ ...serverEnv, ...more });
  const server = await start();
  const handle: DatabaseHandle = createDatabase({ databaseUrl: scratch.env.DATABASE_URL, sqlitePath: `${scratch.dataDir}/afterglow.db` });
  const { db } = handle;
  let current = server;

  const signUp = async (email: string, name: string) => {
    const res = await fetch(`${server.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: PUBLIC_ORIGIN },
      body: JSON.stringify({ email, password: 'Sunset123', name }),
    });
    if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { user: { id: string } };
    return { token: res.headers.get('set-auth-token')!, cookie: res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; '), id: body.user.id };
  };
  const writer = await signUp('writer@afterglow.example.test', 'Evening Writer');

  return {
    get server() {
      return current;
    },
    set server(next: RunningServer) {
      current = next;
    },
    smtp,
    db,
    scratch,
    writer,
    start,
    signUp,
    async publish(title) {
      const res = await fetch(`${current.url}/api/blogs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${writer.token}` },
        body: JSON.stringify({
          title,
          category: 'Travelling & Photography',
          type: 'written content',
          short_description: `The light over the bay, ${title}.`,
          long_description: 'A long description of a long evening. '.repeat(10),
          availability: 'Public',
          photo: POST_PHOTO,
        }),
      });
      if (!res.ok) throw new Error(`publish failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { insertedId: string }).insertedId;
    },
    async seedSubscribers(emails, confirmed) {
      const now = new Date().toISOString();
      const rows = emails.map((email, i) => ({ id: `seed-${confirmed ? 'c' : 'u'}-${i}-${Math.random().toString(36).slice(2, 8)}`, email, created_at: now, confirmed_at: confirmed ? now : null }));
      for (let i = 0; i < rows.length; i += 500) await db.insertInto('subscribers').values(rows.slice(i, i + 500)).execute();
    },
    async waitForQueueEmpty(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = new Date().toISOString();
        const { jobs } = await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll<number>().as('jobs'))
          .where((eb) => eb.or([eb('status', '=', 'running'), eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)])]))
          .executeTakeFirstOrThrow();
        const { n } = await db
          .selectFrom('mail_queue')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['queued', 'sending'])
          .executeTakeFirstOrThrow();
        if (Number(n) === 0 && Number(jobs) === 0) return;
        if (Date.now() > deadline) throw new Error(`${n} mails still queued after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await current.stop();
      await handle.close();
      await smtp.stop();
      await scratch.drop();
    },
  };
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface ReadMail {
  to: string;
  messageId: string;
  subject: string;
  parsed: ParsedMail;
  header(name: string): string | undefined;
  /** The https URL of List-Unsubscribe. */
  unsubscribeUrl: string | undefined;
}

export async function readMail(raw: string, to: string): Promise<ReadMail> {
  const parsed = await simpleParser(raw);
  const header = (name: string) => parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, ' ');
  const unsubscribeUrl = /<(https?:[^>]+)>/.exec(header('List-Unsubscribe') ?? '')?.[1];
  return { to, messageId: parsed.messageId ?? '', subject: parsed.subject ?? '', parsed, header, unsubscribeUrl };
}

/** The queue's rows by status (for the figure lines). */
export async function queueCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('mail_queue').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
