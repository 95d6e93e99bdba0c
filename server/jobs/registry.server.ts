import { BLOG_SUBSCRIPTIONS } from '~/features/blogs/blogs.service.server';
import { publishScheduledDraft } from '~/features/blogs/drafts.service.server';
import { importJob, sweepImports } from '~/features/imports/import-runs.service.server';
import { claimMailJob } from '~/features/imports/site-authors.service.server';
import { exportJob, exportSubscriptions, sweepExports } from '~/features/exports/exports.service.server';
import { FEDERATION_SUBSCRIPTIONS, federationTasks } from '~/features/federation/federation-events.server';
import { FEDERATION_MESSAGE_JOB } from '~/features/federation/federation-store.server';
import { sweepOrphanedImages } from '~/features/images/image-sweep.service.server';
import { releaseExpiredHolds } from '~/features/moderation/spam-hold.service.server';
import { MAIL_SUBSCRIPTIONS, prepareDailyDigest, prepareNoticeDigests } from '~/features/mail/mail.service.server';
import { NOTIFICATION_SUBSCRIPTIONS, notificationTasks } from '~/features/notifications/notification-events.server';
import { eventJobs, type Subscription } from '~/kernel/events.server';
import { type JobDefinition, JobRegistry, pruneDoneJobs } from '~/kernel/jobs.server';
import { definePeriodic, type PeriodicTask } from '~/kernel/schedule.server';
import { createMailer, type Mailer } from '../adapters/smtp.server';
import type { Config } from '../config.server';
import { createLogger } from '../logger.server';

const MINUTE = 60_000;

/**
 * Every piece of background work, in one place (docs/decisions/057): the periodic tasks, the
 * event subscriptions and any other job kind. A worker runs only the kinds listed here; a new
 * one is added to this file and nowhere else.
 */
/** What the background work reads of the configuration. */
export type JobsConfig = Pick<Config, 'MAIL_DIGEST_HOUR' | 'DATA_DIR' | 'SESSION_SECRET' | 'PUBLIC_URL' | 'PORT' | 'SITE_NAME' | 'EXPORT_KEEP_HOURS' | 'SMTP_URL' | 'MAIL_FROM' | 'LOG_LEVEL'>;

export function periodicTasks(config: JobsConfig): PeriodicTask[] {
  return [
    // A held blog reaches the sitemap, feeds, featured and the newsletter at most this long after
    // its writer's N days end (docs/decisions/029).
    definePeriodic({
      name: 'spam-hold-release',
      everyMs: 5 * MINUTE,
      run: async (ctx) => {
        const { released } = await releaseExpiredHolds(ctx);
        if (released > 0) ctx.log.info({ released }, 'spam hold ended for blogs');
      },
    }),
    // Uploaded images nothing refers to any more (docs/decisions/018).
    definePeriodic({ name: 'upload-sweep', everyMs: 60 * MINUTE, run: async (ctx) => void (await sweepOrphanedImages(ctx, ctx.images)) }),
    // The last daily digest exists once its hour has passed (made once, whoever gets there first).
    definePeriodic({ name: 'mail-digest', everyMs: 5 * MINUTE, run: async (ctx) => void (await prepareDailyDigest(ctx, config.MAIL_DIGEST_HOUR)) }),
    // Each member's daily notification digest, once its hour has passed (docs/decisions/062).
    definePeriodic({ name: 'notification-digest', everyMs: 5 * MINUTE, run: async (ctx) => void (await prepareNoticeDigests(ctx, config.MAIL_DIGEST_HOUR)) }),
    definePeriodic({ name: 'jobs-prune', everyMs: 60 * MINUTE, run: async (ctx) => void (await pruneDoneJobs(ctx)) }),
    // Exports whose link has run out, with their files (docs/decisions/074).
    definePeriodic({ name: 'exports-sweep', everyMs: 60 * MINUTE, run: async (ctx) => void (await sweepExports(ctx, config)) }),
    // Import runs left in review or stopped, their staged rows and archives (docs/decisions/095).
    definePeriodic({ name: 'imports-sweep', everyMs: 60 * MINUTE, run: async (ctx) => void (await sweepImports(ctx, config)) }),
    ...notificationTasks(),
    ...federationTasks(),
  ];
}

/** Who acts on which domain event. */
export const SUBSCRIPTIONS: Subscription<any>[] = [...MAIL_SUBSCRIPTIONS, ...NOTIFICATION_SUBSCRIPTIONS, ...BLOG_SUBSCRIPTIONS, ...FEDERATION_SUBSCRIPTIONS];

/** Job kinds that are neither periodic nor a subscription. */
const otherJobs = (config: JobsConfig, mailer: Mailer): JobDefinition<any>[] => [
  // A scheduled post, published at its time (docs/decisions/070).
  publishScheduledDraft,
  importJob,
  // A site import's new account is mailed its link to set a password, at once (docs/decisions/083).
  claimMailJob(config, (mail) => mailer.send(mail)),
  // An export mails its link itself, at once, like the account mails (docs/decisions/074).
  exportJob(config, (mail) => mailer.send(mail)),
  // Fedify's queue (docs/decisions/068): deliveries, fan-outs and inbox work.
  FEDERATION_MESSAGE_JOB,
];

export interface Jobs {
  registry: JobRegistry;
  periodic: PeriodicTask[];
}

export function createJobs(config: JobsConfig, extra: { subscriptions?: Subscription<any>[]; jobs?: JobDefinition<any>[]; mailer?: Mailer } = {}): Jobs {
  const periodic = periodicTasks(config);
  const mailer = extra.mailer ?? createMailer(config, createLogger(config.LOG_LEVEL));
  const registry = new JobRegistry([
    ...periodic.map((t) => t.job),
    ...eventJobs([...SUBSCRIPTIONS, ...exportSubscriptions(config), ...(extra.subscriptions ?? [])]),
    ...otherJobs(config, mailer),
    ...(extra.jobs ?? []),
  ]);
  return { registry, periodic };
}
