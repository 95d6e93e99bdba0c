import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  claimMailBatch,
  type MailOutcome,
  recordMailOutcome,
  releaseMailClaims,
} from '~/features/mail/mail.service.server';
import { renderQueuedMail } from '~/features/mail/mail-templates.server';
import { createMailer, type Mailer } from '../adapters/smtp.server';
import { type AppDeps, serviceContext } from '../context.server';

/** The most rows one batch claims, whatever the rate: a batch is also the unit of logging. */
const BATCH_MAX = 100;
/** How long the worker rests when nothing is due. */
const IDLE_MS = 1_000;

/**
 * Sorts an SMTP failure (nodemailer's error carries the reply code and the command it answered):
 * a 5xx to RCPT TO says the address does not exist, so it bounces; another 5xx will not get
 * better by trying again; a 4xx, a timeout or a dropped connection will, later.
 */
export function classifySmtpError(error: unknown): MailOutcome {
  const e = error as { responseCode?: number; command?: string; message?: string; code?: string };
  const text = `${e.code ?? 'error'}: ${e.message ?? String(error)}`;
  if (typeof e.responseCode === 'number' && e.responseCode >= 500) {
    return /RCPT/i.test(e.command ?? '') ? { type: 'bounced', reason: text } : { type: 'failed', error: text };
  }
  return { type: 'retry', error: text };
}

export interface BatchReport {
  claimed: number;
  sent: number;
  retry: number;
  bounced: number;
  failed: number;
  dropped: number;
  released: number;
}

export interface MailSender {
  /** Sends one batch now (tests, and the loop below). */
  runBatch(): Promise<BatchReport>;
  /** Asks the batch under way to finish the mail in flight and hand the rest back. */
  stop(): void;
  /** Closes the SMTP connection (after the batch under way ended). */
  close(): void;
}

/**
 * The send queue's worker (docs/decisions/023): claims due rows, sends them at most
 * MAIL_RATE_PER_MINUTE, records each outcome, logs a line per batch. Any number of instances may
 * run one against the same database: claims never overlap, and a dead worker's rows are taken
 * over when its lease (MAIL_CLAIM_SECONDS) ends.
 */
export function createMailSender(deps: AppDeps, options: { mailer?: Mailer; worker?: string } = {}): MailSender {
  const { config } = deps;
  const log = deps.log.child({ module: 'mail-queue' });
  const ctx = serviceContext(deps, null, { log });
  const mailer = options.mailer ?? createMailer(config, log, { pool: true, logEach: false });
  const worker = options.worker ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const gapMs = 60_000 / config.MAIL_RATE_PER_MINUTE;
  // About ten seconds of mail per batch, so a batch ends (and is logged) often at any rate.
  const batchSize = Math.max(1, Math.min(BATCH_MAX, Math.floor(config.MAIL_RATE_PER_MINUTE / 6)));
  let stopping = false;
  let lastSendAt = 0;
  let wake: (() => void) | null = null;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => (wake = null));

  async function runBatch(): Promise<BatchReport> {
    const leaseMs = config.MAIL_CLAIM_SECONDS * 1000;
    // No mail is started in the last quarter of the lease: once it ends another worker may take
    // the row, and both would send it. What is left goes back to the queue.
    const sendBefore = Date.now() + leaseMs * 0.75;
    const batch = await claimMailBatch(ctx, { worker, limit: batchSize, leaseMs });
    const report: BatchReport = { claimed: batch.mails.length + batch.dropped + batch.bounced, sent: 0, retry: 0, bounced: batch.bounced, failed: 0, dropped: batch.dropped, released: 0 };
    for (const [index, mail] of batch.mails.entries()) {
      const wait = lastSendAt + gapMs - Date.now();
      if (wait > 0 && !stopping) await rest(wait);
      if (stopping || Date.now() > sendBefore) {
        const left = batch.mails.slice(index).map((m) => m.id);
        await releaseMailClaims(ctx, worker, left);
        report.released = left.length;
        break;
      }
      lastSendAt = Date.now();
      let outcome: MailOutcome;
      try {
        await mailer.send(renderQueuedMail(config, mail));
        outcome = { type: 'sent' };
      } catch (error) {
        outcome = classifySmtpError(error);
      }
      report[await recordMailOutcome(ctx, mail, outcome, config.MAIL_RETRY_SECONDS * 1000)]++;
    }
    if (report.claimed > 0) log.info({ worker, ...report }, `mail: batch of ${report.claimed}: ${report.sent} sent, ${report.retry} to retry, ${report.bounced} bounced, ${report.failed} failed`);
    return report;
  }

  return {
    runBatch,
    stop() {
      stopping = true;
      wake?.();
    },
    close() {
      mailer.close?.();
    },
  };
}

/**
 * Runs the queue for as long as the process does (server/app.ts starts it, SIGTERM stops it).
 * A failing batch (database or SMTP server away) is logged and tried again after a rest.
 */
export function startMailSender(deps: AppDeps, options: { mailer?: Mailer; worker?: string } = {}): () => Promise<void> {
  const queue = createMailSender(deps, options);
  let stopped = false;
  let wake: (() => void) | null = null;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = resolve;
    });
  const loop = (async () => {
    while (!stopped) {
      try {
        const report = await queue.runBatch();
        if (report.claimed === 0 && !stopped) await rest(IDLE_MS);
      } catch (error) {
        deps.log.warn({ err: error }, 'mail: batch failed; will retry');
        if (!stopped) await rest(IDLE_MS * 5);
      }
    }
  })();
  return async () => {
    stopped = true;
    wake?.();
    queue.stop();
    await loop;
    queue.close();
  };
}
