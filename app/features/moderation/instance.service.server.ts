import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { DialectName } from '~/db/schema';
import { keptFor } from '~/lib/render/caches.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { ImageStore, ServiceContext } from '~/lib/core/service-context';
import { version } from '../../../package.json';
import * as repo from './instance.repo.server';
import { requireRole } from './moderation.service.server';
import { countAccountsWaiting } from './spam-hold.service.server';

/**
 * What an operator watches (docs/decisions/052): the queues /metrics reports on every scrape,
 * and the instance page admins read on /moderation/instance.
 */

export interface QueueJson {
  depth: number;
  /** Seconds the oldest waits; 0 when none does. */
  oldestAgeSeconds: number;
}

export interface Queues {
  /** Mails not yet handed to the SMTP server (docs/decisions/023). */
  mail: QueueJson;
  /** Reports waiting for a moderator. */
  reports: QueueJson;
}

const ageOf = (row: repo.QueueRow, now: Date): QueueJson => ({
  depth: row.depth,
  oldestAgeSeconds: row.oldestAt ? Math.max(0, Math.round((now.getTime() - new Date(row.oldestAt).getTime()) / 1000)) : 0,
});

/**
 * The queues' depths and oldest ages. No role is checked: /metrics calls it, and who may read
 * that is decided by the HTTP layer from the client's address or a bearer token.
 */
export async function readQueues(ctx: Pick<ServiceContext, 'db' | 'now'>): Promise<Queues> {
  const [mail, reports] = await Promise.all([repo.mailQueue(ctx.db), repo.openReports(ctx.db)]);
  const now = ctx.now();
  return { mail: ageOf(mail, now), reports: ageOf(reports, now) };
}

/** When each Node.js LTS line stops getting security fixes (the Node.js release schedule). */
export const NODE_END_OF_LIFE: Record<number, string> = {
  20: '2026-04-30',
  22: '2027-04-30',
  24: '2028-04-30',
  26: '2029-04-30',
};
/** How long before its end a runtime is flagged. */
const RUNTIME_WARNING_DAYS = 180;
/** A backup older than this is flagged. */
const BACKUP_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

/** What the page needs from the process's configuration (server/config.server.ts). */
export interface InstanceSetup {
  DATA_DIR: string;
  PUBLIC_URL?: string;
  SMTP_URL?: string;
  S3_BUCKET?: string;
}

export interface InstanceWarning {
  code: 'public-url' | 'smtp' | 'runtime' | 'backup' | 'accounts-waiting';
  text: string;
}

export interface LastBackup {
  at: string;
  /** The folder's name under DATA_DIR/backups. */
  name: string;
  database: string;
}

export interface InstanceOverview {
  version: string;
  node: string;
  uptimeSeconds: number;
  database: { kind: DialectName; bytes: number };
  images: { store: 'local' | 's3'; bytes: number; count: number };
  users: number;
  blogs: number;
  queues: Queues & { viewsBuffered: number };
  /** Accounts with blogs on the spam hold or content waiting for a moderator (decision 061). */
  accountsWaiting: number;
  lastBackup: LastBackup | null;
  warnings: InstanceWarning[];
}

/** /moderation/instance: admins only; to anyone else the screen does not exist (the loader's 404). */
export async function getInstanceOverview(
  ctx: ServiceContext,
  setup: InstanceSetup,
  runtime: { nodeVersion: string; uptimeSeconds: number; viewsBuffered: number },
): Promise<InstanceOverview> {
  await requireRole(ctx, 'admin');
  const [counts, bytes, queues, images, lastBackup, accountsWaiting] = await Promise.all([
    repo.countUsersAndBlogs(ctx.db),
    repo.databaseBytes(ctx.db, ctx.dialect),
    readQueues(ctx),
    storedImages(ctx.images, ctx.now()),
    findLastBackup(path.join(setup.DATA_DIR, 'backups')),
    countAccountsWaiting(ctx),
  ]);
  const now = ctx.now();
  return {
    version,
    node: runtime.nodeVersion,
    uptimeSeconds: Math.round(runtime.uptimeSeconds),
    database: { kind: ctx.dialect, bytes },
    images: { store: setup.S3_BUCKET ? 's3' : 'local', ...images },
    ...counts,
    queues: { ...queues, viewsBuffered: runtime.viewsBuffered },
    lastBackup,
    accountsWaiting,
    warnings: instanceWarnings(setup, runtime.nodeVersion, lastBackup, now, accountsWaiting),
  };
}

/** The configuration's and the machine's loose ends, worst first as an operator would fix them. */
export function instanceWarnings(setup: InstanceSetup, nodeVersion: string, lastBackup: LastBackup | null, now: Date, accountsWaiting = 0): InstanceWarning[] {
  const warnings: InstanceWarning[] = [];
  if (accountsWaiting > 0) warnings.push({ code: 'accounts-waiting', text: MESSAGES.instanceAccountsWaiting(accountsWaiting) });
  if (!setup.PUBLIC_URL) warnings.push({ code: 'public-url', text: MESSAGES.instanceNoPublicUrl });
  if (!setup.SMTP_URL) warnings.push({ code: 'smtp', text: MESSAGES.instanceNoSmtp });
  const major = Number(nodeVersion.replace(/^v/, '').split('.')[0]);
  const endsOn = NODE_END_OF_LIFE[major];
  if (endsOn) {
    const left = new Date(`${endsOn}T00:00:00Z`).getTime() - now.getTime();
    if (left <= 0) warnings.push({ code: 'runtime', text: MESSAGES.instanceRuntimeEnded(nodeVersion, endsOn) });
    else if (left <= RUNTIME_WARNING_DAYS * DAY_MS) warnings.push({ code: 'runtime', text: MESSAGES.instanceRuntimeEnding(nodeVersion, endsOn) });
  }
  if (!lastBackup) warnings.push({ code: 'backup', text: MESSAGES.instanceNoBackup });
  else {
    const days = Math.floor((now.getTime() - new Date(lastBackup.at).getTime()) / DAY_MS);
    if (days >= BACKUP_WARNING_DAYS) warnings.push({ code: 'backup', text: MESSAGES.instanceOldBackup(days) });
  }
  return warnings;
}

/**
 * The newest backup `npm run backup` wrote to its default place (DATA_DIR/backups/<time>/), by
 * the `createdAt` of its manifest: a folder without one is an unfinished or foreign copy.
 */
export async function findLastBackup(dir: string): Promise<LastBackup | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  let last: LastBackup | null = null;
  for (const name of names) {
    try {
      const manifest = JSON.parse(await readFile(path.join(dir, name, 'manifest.json'), 'utf8')) as { createdAt?: unknown; database?: unknown };
      if (typeof manifest.createdAt !== 'string' || Number.isNaN(Date.parse(manifest.createdAt))) continue;
      if (!last || manifest.createdAt > last.at) last = { at: manifest.createdAt, name, database: String(manifest.database ?? '') };
    } catch {
      // not a backup folder
    }
  }
  return last;
}

/** The bytes and number of images the store holds (read again at most once a minute: the `image_totals` cache). */
function storedImages(images: ImageStore, now: Date): Promise<{ bytes: number; count: number }> {
  return keptFor('image_totals', images, '', now.getTime(), async () => {
    let bytes = 0;
    let count = 0;
    for await (const object of images.list()) {
      bytes += object.size;
      count++;
    }
    return { bytes, count };
  });
}
