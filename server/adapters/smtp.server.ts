import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { lazy } from '~/lib/page/lazy';

const loadNodemailer = lazy(async () => (await import('nodemailer')).default);
import type { Logger } from 'pino';
import type { Mail } from '~/features/mail/mail-templates.server';
import type { Config } from '../config.server';

/**
 * nodemailer waits up to 10 minutes on a silent server by default; a queued mail must fail (and
 * be retried) well inside its claim's lease instead.
 */
const QUEUE_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export interface MailerOptions {
  /** Keep SMTP connections open between mails (the send queue sends many in a row). */
  pool?: boolean;
  /** Log each mail (the send queue logs a line per batch instead). */
  logEach?: boolean;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Closes pooled connections, if any. */
  close?(): void;
}

/**
 * The mail transport: SMTP when SMTP_URL is set; otherwise each mail is written to
 * DATA_DIR/outbox/ as an .eml file (openable by any mail client) and logged in one line, so a
 * development machine needs no mail server.
 */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>, log: Logger, options: MailerOptions = {}): Mailer {
  const mailLog = log.child({ module: 'mail' });
  const logEach = options.logEach ?? true;
  if (config.SMTP_URL) {
    const smtpUrl = config.SMTP_URL;
    const transport = lazy(async () => (await loadNodemailer()).createTransport(options.pool ? { url: smtpUrl, pool: true, maxConnections: 1, ...QUEUE_TIMEOUTS } : smtpUrl));
    let opened = false;
    return {
      async send(mail) {
        opened = true;
        await (await transport()).sendMail({ from: config.MAIL_FROM, ...mail });
        if (logEach) mailLog.info({ to: mail.to, subject: mail.subject }, 'mail sent');
      },
      close() {
        if (opened) void transport().then((t) => t.close());
      },
    };
  }
  const outbox = path.join(config.DATA_DIR, 'outbox');
  const render = lazy(async () => (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    async send(mail) {
      const info = await (await render()).sendMail({ from: config.MAIL_FROM, ...mail });
      await mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(outbox, name);
      // Written beside the outbox, then renamed in (same disk, so atomic): whoever watches the
      // outbox sees a mail whole or not at all, never a file still being written.
      const partial = path.join(config.DATA_DIR, `.${name}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, file);
      if (logEach) mailLog.info({ to: mail.to, subject: mail.subject, file }, 'mail written to the outbox (SMTP_URL is not set)');
    },
    close() {},
  };
}
