import path from 'node:path';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { ConfigError, loadConfig } from './config.server';
import { closeMarkdownPool } from '~/features/blogs/markdown.server';
import { exportToFile } from '~/features/exports/exports.service.server';
import { imageStoreFor } from '~/features/images/image-store.server';
import { type SweepResult, sweepOrphanedImages, UPLOAD_GRACE_MS } from '~/features/images/image-sweep.service.server';
import { getImportRun, getSiteImportRun, type ImportRunView, startImport, startSiteImport } from '~/features/imports/import-runs.service.server';
import { isSubscriberList } from '~/features/imports/imports.schema';
import { IMPORT_TEXTS } from '~/lib/texts/imports';
import { setAdminByOperator } from '~/features/moderation/moderation.service.server';
import { findAccountByEmail } from '~/features/users/users.service.server';
import { countAccountsWaiting } from '~/features/moderation/spam-hold.service.server';
import { type AppDeps, createDeps, serviceContext, StartupError } from './context.server';
import { ensureFederation } from './http/federation.server';
import { createHttpApp, type HttpApp } from './http/http.server';
import { createLogger } from './logger.server';
import { mailOrigin } from '~/features/mail/mail-templates.server';
import { mailStatus as readMailStatus, type MessageStatus } from '~/features/mail/mail.service.server';
import { federationStatus as readFederationStatus } from '~/features/federation/handles.service.server';
import { startMailSender } from './jobs/mail-sender.server';
import { createJobs } from './jobs/registry.server';
import { startJobRunner } from './jobs/runner.server';
import { pagePatternsOf } from './metrics.server';
import { pageReadsOf } from './http/middleware/page-cache.server';

export { ConfigError, StartupError };

declare module 'react-router' {
  interface AppLoadContext {
    deps: AppDeps;
    service: import('~/lib/core/service-context').ServiceContext;
    user: import('~/lib/core/service-context').SessionUser | null;
    nonce: string;
    requestId: string;
    /**
     * What a page shows of its viewer and request, as placeholders in a signed-in document's
     * render: loaders show these, never their own copies (decisions 043, 078).
     */
    shown: import('~/lib/render/viewer-strings.server').ShownStrings;
    /** The placeholders `shown` holds, filled in by entry.server. */
    slots: import('~/lib/render/viewer-slots.server').FilledSlots;
    /** Set when the viewer memo may keep this page's answer: entry.server leaves it there (decision 059). */
    viewerCapture?: import('./http/middleware/viewer-memo.server').ViewerCapture;
    clientIp: string;
    /**
     * The request is a form post (not GET/HEAD). A loader rendering after a post whose session
     * ended shows the form again instead of sending the visitor to /login (docs/decisions/026).
     */
    formPost: boolean;
    /** Set by entry.server's handleError, read by the HTTP layer after the page is rendered. */
    failure: { databaseUnavailable: boolean; clientAborted: boolean };
  }
}

export interface ServerOptions {
  env?: NodeJS.ProcessEnv;
  dev?: boolean;
  clientDir?: string;
}

export interface AppServer {
  app: HttpApp;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * The SSR build's entry (vite.config.ts): parses the environment, opens the database, applies
 * migrations and composes the HTTP app with React Router's handler. server.js listens.
 */
export async function createServer(options: ServerOptions = {}): Promise<AppServer> {
  const config = loadConfig(options.env ?? process.env);
  const log = createLogger(config.LOG_LEVEL);
  const deps = await createDeps(config, log);
  if (!config.PUBLIC_URL) {
    // Mails never link to a request's host (docs/product.md#links-in-mails), so without PUBLIC_URL
    // they can only point at this machine (docs/decisions/021).
    log.warn(`PUBLIC_URL is not set: links in mails point to ${mailOrigin(config)}. Set PUBLIC_URL to the site's public address before you share the site.`);
  }
  if (config.IMAGE_FETCH_ALLOW_LOOPBACK === 'on') log.warn('IMAGE_FETCH_ALLOW_LOOPBACK is on: blog photos may be fetched from this host itself. It is for tests only; turn it off.');
  // An operator who does not open /moderation still learns that new writers wait for approval
  // (docs/decisions/061). Not awaited: the start does not wait on it.
  void countAccountsWaiting(deps.database)
    .then((waiting) => {
      if (waiting > 0) log.warn(`${waiting === 1 ? '1 account is' : `${waiting} accounts are`} waiting for a moderator's approval: see /moderation.`);
    })
    .catch((error: unknown) => log.warn({ err: error }, 'could not count the accounts waiting for approval'));
  const dev = options.dev ?? false;
  const loadBuild = () => import('virtual:react-router/server-build') as Promise<ServerBuild>;
  // Given a function, React Router derives its routes and static handler again on every request
  // (for development's hot reload): about a tenth of a signed-in page's CPU. Production hands it
  // the build itself, so that is done once.
  const build = await loadBuild();
  const pageHandler = createRequestHandler(dev ? loadBuild : build, dev ? 'development' : 'production');
  // Federation (and Fedify, loaded for it) is running before any job or request needs it.
  await ensureFederation(deps);
  const jobs = startJobRunner(deps, createJobs(deps.config));
  const stopMail = startMailSender(deps);
  return {
    app: createHttpApp(deps, { pageHandler, dev, clientDir: options.clientDir, pagePatterns: pagePatternsOf(build.routes), pageReads: pageReadsOf(build.routes) }),
    deps,
    async close() {
      // Buffered views are written first, then the job and the mail in flight are finished and
      // recorded; the rest of their batches goes back to the queue.
      await deps.views.close();
      await Promise.all([jobs.stop(), stopMail()]);
      await closeMarkdownPool();
      await deps.rateLimits?.close();
      await deps.database.close();
    },
  };
}

/** `npm run db:migrate`: opens the configured database, applies what is pending, closes it. */
export async function migrate(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const config = loadConfig(env);
  const log = createLogger('warn');
  const deps = await createDeps(config, log);
  await deps.database.close();
  return deps.migrationsApplied;
}

/** Opens the configured database with migrations applied, for operator scripts (seeding, backups). */
export async function openDeps(env: NodeJS.ProcessEnv = process.env): Promise<AppDeps> {
  const config = loadConfig(env);
  return createDeps(config, createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL));
}

/** `npm run mail:status`: one line per message, newest first, then the bounced addresses. */
export async function mailStatus(deps: AppDeps, limit = 20): Promise<string[]> {
  const { messages, bouncedAddresses } = await readMailStatus(serviceContext(deps, null), limit);
  const line = (m: MessageStatus) =>
    `${m.createdAt.slice(0, 16).replace('T', ' ')}  ${m.label}: ${m.queued + m.sending} queued, ${m.sent} sent, ${m.failed} failed, ${m.bounced} bounced`;
  return [...(messages.length ? messages.map(line) : ['no mail queued yet']), `bounced addresses (skipped from now on): ${bouncedAddresses}`];
}

/** `npm run federation:status`: the federation queue and what federation keeps (docs/decisions/068). */
export async function federationStatus(deps: AppDeps): Promise<string[]> {
  const enabled = Boolean(deps.config.PUBLIC_URL) && deps.config.FEDERATION === 'on';
  return [`federation: ${enabled ? `on, as ${deps.config.PUBLIC_URL}` : 'off (set PUBLIC_URL; FEDERATION must not be off)'}`, ...(await readFederationStatus(serviceContext(deps, null)))];
}

/** `npm run sweep:uploads`: one sweep of the configured image store (disk or S3) now. */
export function sweepUploads(deps: AppDeps, graceMs = UPLOAD_GRACE_MS): Promise<SweepResult> {
  return sweepOrphanedImages(serviceContext(deps, null), imageStoreFor(deps.config), graceMs);
}

/**
 * `npm run import -- FILE --as EMAIL [--consented]` (docs/decisions/072): the archive is imported
 * for the account named, as a run of the job queue that this process works on (with any running
 * instance) until the run ends; `progress` hears each change. Answers the finished run.
 * `site`: an admin's import of a whole site (docs/decisions/083), each source author (by her id,
 * email or name in the archive) mapped onto the account of an email; the others get a new
 * account with `createAccounts`, else their posts stay out. The service checks the role.
 */
export async function importArchive(
  deps: AppDeps,
  input: { file: string; as: string; consented: boolean; siteUrl: string | null; site?: { authors: Record<string, string>; createAccounts: boolean } },
  progress: (run: ImportRunView) => void,
): Promise<ImportRunView> {
  const user = await findAccountByEmail(serviceContext(deps, null), input.as);
  if (!user) throw new Error(`no account has the email ${input.as}`);
  const ctx = serviceContext(deps, user);
  const file = path.resolve(input.file);
  const start = { fileName: path.basename(file), filePath: file, confirmed: true, keepFile: true };
  const options = { consented: input.consented, siteUrl: input.siteUrl };
  const { runId } = input.site
    ? await startSiteImport(ctx, {
        ...start,
        options: {
          ...options,
          authorChoices: Object.fromEntries(Object.entries(input.site.authors).map(([source, email]) => [source, { choice: 'account' as const, email }])),
          unmatchedAuthors: input.site.createAccounts ? 'new' : 'skip',
        },
      })
    : await startImport(ctx, { ...start, options });
  const read = input.site ? getSiteImportRun : getImportRun;
  const runner = startJobRunner(deps, createJobs(deps.config), { worker: `import-cli:${process.pid}` });
  try {
    for (;;) {
      const run = await read(ctx, runId);
      progress(run);
      if (run.status === 'done' || run.status === 'failed') return run;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await runner.stop();
  }
}

/**
 * `npm run admin -- grant|revoke EMAIL`: only the operator names admins (docs/decisions/028).
 * Answers whether anything changed.
 */
/**
 * The command line's report of a subscriber list imported alone, as the screen gives it: its
 * subscribers' line, without the line on posts, comments, pictures and links (docs/decisions/095);
 * null for an archive with posts.
 */
export function listReport(run: ImportRunView): string | null {
  return isSubscriberList(run) && run.report ? IMPORT_TEXTS.reportSubscribers(run.report.subscribers) : null;
}

export async function setAdmin(deps: AppDeps, email: string, grant: boolean): Promise<boolean> {
  const { changed } = await setAdminByOperator(serviceContext(deps, null), email, grant);
  return changed;
}

/**
 * `npm run export -- [--site | --as EMAIL] OUT.zip`: the whole site, or one writer's things, written
 * straight to a file (docs/decisions/074). Answers what went in.
 */
export function exportArchive(deps: AppDeps, target: { site: true } | { email: string }, out: string) {
  return exportToFile(serviceContext(deps, null), deps.config, target, out);
}
