import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ExportScope } from '~/db/schema';
import { exportReadyMail, type Mail } from '~/features/mail/mail.service.server';
import { requireRole } from '~/features/moderation/moderation.service.server';
import { onEvent } from '~/kernel/events.server';
import { defineJob, enqueueJob, type JobDefinition } from '~/kernel/jobs.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { type ServiceContext, type StoredObject, userOrThrow401 } from '~/lib/core/service-context';
import { MESSAGES } from '~/lib/texts/messages';
import type { ArchiveSummary } from './export-archive.server';
import * as repo from './exports.repo.server';
import type { ExportView } from './exports.schema';

/**
 * Exports (docs/decisions/074): a writer asks for a zip of everything that is hers, an admin for
 * the whole site. A job makes it and keeps it where images are kept (local disk or the S3
 * bucket, as private files: decision 092), so any instance serves its link; the owner gets a
 * mail with a signed link, and the link works for her alone, signed in, until the export
 * expires; a periodic sweep deletes it then. Deleting the account deletes her exports.
 */

/** The settings exports depend on (server/config.server.ts validates them). */
export interface ExportSettings {
  DATA_DIR: string;
  SESSION_SECRET: string;
  PUBLIC_URL?: string;
  PORT: number;
  SITE_NAME: string;
  /** How long a made export is kept and its link works. */
  EXPORT_KEEP_HOURS: number;
}

const HOUR = 3_600_000;
/** How long an export may take before it counts as failed (the job's attempts end sooner). */
const PENDING_HOLD_MS = 24 * HOUR;
/** A file of exports with no row, older than this, is a leftover (a crash, a deletion elsewhere). */
const LEFTOVER_MS = HOUR;
const EXPORT_ATTEMPTS = 3;
const LIST_LIMIT = 10;

/** Where a job writes a zip while it makes it, on its own instance's disk. */
export const exportsDir = (settings: Pick<ExportSettings, 'DATA_DIR'>) => path.join(settings.DATA_DIR, 'exports');
const partialOf = (settings: Pick<ExportSettings, 'DATA_DIR'>, id: string) => path.join(exportsDir(settings), `${id}.zip.partial`);

/** The private files' folder exports are kept in (DATA_DIR/exports on disk, `exports/` in the bucket). */
const EXPORTS_FOLDER = 'exports';

const sign = (secret: string, id: string, expiresAt: string) => createHmac('sha256', secret).update(`afterglow-export\n${id}\n${expiresAt}`).digest();

/**
 * The stored zip's key: its id and a secret-keyed tag, so the name cannot be guessed from the id
 * where the bucket answers anyone who names an object (decision 092).
 */
export function exportKey(settings: Pick<ExportSettings, 'SESSION_SECRET'>, id: string): string {
  const tag = createHmac('sha256', settings.SESSION_SECRET).update(`afterglow-export-file\n${id}`).digest('hex').slice(0, 32);
  return `${EXPORTS_FOLDER}/${id}.${tag}.zip`;
}
const idOfKey = (key: string) => /^[^/]+\/([^./]+)\./.exec(key)?.[1];

/** The download link's path: the export's id and a signature of it with its expiry. */
export function downloadPath(settings: Pick<ExportSettings, 'SESSION_SECRET'>, row: { id: string; expires_at: string }): string {
  return `/exports/${encodeURIComponent(row.id)}/${sign(settings.SESSION_SECRET, row.id, new Date(row.expires_at).toISOString()).toString('base64url')}`;
}

function toView(settings: ExportSettings, row: NonNullable<Awaited<ReturnType<typeof repo.findExport>>>, now: Date): ExportView {
  const live = row.status === 'ready' && new Date(row.expires_at) > now;
  return {
    id: row.id,
    scope: row.scope,
    status: row.status === 'ready' && !live ? 'expired' : row.status,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    expiresAt: row.status === 'ready' ? row.expires_at : null,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    downloadUrl: live ? downloadPath(settings, row) : null,
  };
}

/** The job that makes one export and mails its link. */
export const EXPORT_JOB_KIND = 'export-make';
const ExportJobPayload = z.object({ exportId: z.string().min(1).max(64) });

/**
 * Asks for an export: the caller's own things, or (admins only) the whole site. One of each kind
 * is made at a time; the job is queued with the row, in one transaction.
 */
export async function requestExport(ctx: ServiceContext, settings: ExportSettings, scope: ExportScope): Promise<ExportView> {
  const user = scope === 'site' ? await requireRole(ctx, 'admin') : userOrThrow401(ctx);
  await ctx.limit(RATE_LIMITS.exportRequest);
  const now = ctx.now();
  const row = { id: newId(), user_id: user.id, scope, created_at: now.toISOString(), expires_at: new Date(now.getTime() + PENDING_HOLD_MS).toISOString() };
  await ctx.db.transaction().execute(async (trx) => {
    const txCtx = { ...ctx, db: trx };
    if ((await repo.countPending(trx, user.id, scope)) > 0) throw new AppError('conflict', MESSAGES.exportAlreadyPending);
    await repo.insertExport(trx, row);
    await enqueueJob(txCtx, { kind: EXPORT_JOB_KIND, payload: ExportJobPayload }, { exportId: row.id }, { key: `export:${row.id}` });
  });
  ctx.log.info({ export: row.id, scope }, 'export asked for');
  return toView(settings, { ...row, status: 'pending', size_bytes: null, error: null, finished_at: null, mailed_at: null }, now);
}

/** The caller's latest exports, newest first, each with its link while it works. */
export async function listExports(ctx: ServiceContext, settings: ExportSettings): Promise<ExportView[]> {
  const user = userOrThrow401(ctx);
  const now = ctx.now();
  return (await repo.listExportsOf(ctx.db, user.id, LIST_LIMIT)).map((row) => toView(settings, row, now));
}

export interface ExportDownload {
  /** The zip, streamed from wherever it is kept. */
  body: Readable;
  size: number;
  /** What the browser saves it as. */
  filename: string;
}

/**
 * The file behind a download link, for its owner only: a wrong or foreign link, one not ready or
 * expired answers the same 404, so a link tells nobody else anything.
 */
export async function openExport(ctx: ServiceContext, settings: ExportSettings, id: string, token: string): Promise<ExportDownload> {
  const user = userOrThrow401(ctx);
  const row = id.length <= 64 ? await repo.findExport(ctx.db, id) : undefined;
  const refused = () => new AppError('not_found', MESSAGES.exportNotFound);
  if (!row || row.user_id !== user.id || row.status !== 'ready' || new Date(row.expires_at) <= ctx.now()) throw refused();
  const expected = sign(settings.SESSION_SECRET, row.id, new Date(row.expires_at).toISOString());
  const given = Buffer.from(token, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused();
  const stored = await ctx.images.files.openFile(exportKey(settings, row.id));
  if (!stored) throw refused();
  const day = row.created_at.slice(0, 10);
  return { body: stored.body, size: stored.size, filename: `${slugOf(settings.SITE_NAME)}-${row.scope === 'site' ? 'site' : 'export'}-${day}.zip` };
}

const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'afterglow';

/** Writes a zip to `partial`, then hands it to `done`: a reader never sees half a zip. */
async function writeWhole(
  ctx: ServiceContext,
  settings: ExportSettings,
  q: { scope: ExportScope; userId: string | null },
  partial: string,
  done: (partial: string) => Promise<unknown>,
): Promise<ArchiveSummary> {
  await mkdir(path.dirname(partial), { recursive: true });
  try {
    // The zip writer and YAML, loaded by the first export, not at start (docs/decisions/087).
    const { writeArchive } = await import('./export-archive.server');
    const summary = await writeArchive(ctx, { scope: q.scope, userId: q.userId, siteUrl: settings.PUBLIC_URL ?? null, exportedAt: ctx.now() }, partial);
    await done(partial);
    return summary;
  } catch (error) {
    await unlink(partial).catch(() => {});
    throw error;
  }
}

/** Where a job sends its mail: the mail transport, given by the server (server/jobs/registry.server.ts). */
export type SendMail = (mail: Mail) => Promise<void>;

/**
 * The export job: makes the zip (again after a crash: the row says where it stands), marks it
 * ready with its expiry, then mails the link once. A row deleted meanwhile (the account went)
 * takes its file with it. After its last attempt it is marked failed, which the page shows.
 */
export function exportJob(settings: ExportSettings, send: SendMail): JobDefinition<z.infer<typeof ExportJobPayload>> {
  return defineJob({
    kind: EXPORT_JOB_KIND,
    payload: ExportJobPayload,
    maxAttempts: EXPORT_ATTEMPTS,
    retryMs: 30_000,
    run: async (ctx, { exportId }, job) => {
      let row = await repo.findExport(ctx.db, exportId);
      if (!row || row.status === 'failed') return;
      const key = exportKey(settings, row.id);
      try {
        if (row.status === 'pending') {
          const started = Date.now();
          // Made on this instance's disk, then kept where every instance finds it.
          const summary = await writeWhole(ctx, settings, { scope: row.scope, userId: row.scope === 'writer' ? row.user_id : null }, partialOf(settings, row.id), (partial) =>
            ctx.images.files.putFile(key, partial, 'application/zip'),
          );
          const finishedAt = ctx.now();
          const expiresAt = new Date(finishedAt.getTime() + settings.EXPORT_KEEP_HOURS * HOUR).toISOString();
          if (!(await repo.markReady(ctx.db, row.id, { size: summary.bytes, finishedAt: finishedAt.toISOString(), expiresAt }))) {
            await ctx.images.files.deleteFile(key);
            return;
          }
          ctx.log.info({ export: row.id, ...summary, ms: Date.now() - started }, 'export made');
          row = { ...row, status: 'ready', size_bytes: summary.bytes, finished_at: finishedAt.toISOString(), expires_at: expiresAt };
        }
        if (row.mailed_at) return;
        const account = await repo.findAccount(ctx.db, row.user_id);
        if (!account) return;
        await send(exportReadyMail(settings, { to: account.email, name: account.name, path: downloadPath(settings, row), expiresAt: row.expires_at, scope: row.scope, sizeBytes: Number(row.size_bytes ?? 0) }));
        await repo.markMailed(ctx.db, row.id, ctx.now().toISOString());
      } catch (error) {
        if (job.attempt < EXPORT_ATTEMPTS) throw error;
        ctx.log.error({ err: error, export: row.id }, 'export failed');
        if (row.status === 'pending') await repo.markFailed(ctx.db, row.id, { error: error instanceof Error ? error.message : String(error), finishedAt: ctx.now().toISOString() });
      }
    },
  });
}

async function removeFiles(ctx: ServiceContext, settings: ExportSettings, ids: string[]): Promise<void> {
  for (const id of ids) await ctx.images.files.deleteFile(exportKey(settings, id));
}

/**
 * Deletes exports whose time is up, with their files, and files no row names any more, kept or
 * half made on this instance (a crash mid-write, or a deletion on another instance). Answers how
 * many exports went.
 */
export async function sweepExports(ctx: ServiceContext, settings: ExportSettings): Promise<number> {
  const expired = await repo.deleteExpired(ctx.db, ctx.now().toISOString());
  await removeFiles(ctx, settings, expired);
  const kept: StoredObject[] = [];
  for await (const file of ctx.images.files.listFiles(EXPORTS_FOLDER)) kept.push(file);
  // What this instance was making: the same folder when the files are on this disk.
  const dir = exportsDir(settings);
  const local = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.partial'));
  const known = await repo.existingIds(ctx.db, [...kept.map((f) => idOfKey(f.name)), ...local.map((name) => idOfKey(`${EXPORTS_FOLDER}/${name}`))].filter((id): id is string => Boolean(id)));
  const old = (modified: Date) => ctx.now().getTime() - modified.getTime() > LEFTOVER_MS;
  for (const file of kept) {
    const id = idOfKey(file.name);
    if ((!id || !known.has(id)) && old(file.modified)) await ctx.images.files.deleteFile(file.name);
  }
  for (const name of local) {
    const id = idOfKey(`${EXPORTS_FOLDER}/${name}`);
    const info = id && known.has(id) ? null : await stat(path.join(dir, name)).catch(() => null);
    if (info && old(info.mtime)) await unlink(path.join(dir, name)).catch(() => {});
  }
  if (expired.length > 0) ctx.log.info({ expired: expired.length }, 'exports swept');
  return expired.length;
}

/** What exports do when something happens elsewhere (listed in server/jobs/registry.server.ts). */
export function exportSubscriptions(settings: ExportSettings) {
  return [
    // A deleted account's exports, made or on their way, go with it.
    onEvent('account.deleted', 'exports-remove', async (ctx, event) => {
      await removeFiles(ctx, settings, await repo.deleteExportsOf(ctx.db, event.data.userId));
    }),
  ];
}

/**
 * The operator's command line (`npm run export`): the site, or one writer's things by her email,
 * written straight to `out`, without a job, a link or a mail.
 */
export async function exportToFile(ctx: ServiceContext, settings: ExportSettings, q: { site: true } | { email: string }, out: string): Promise<ArchiveSummary> {
  let userId: string | null = null;
  if (!('site' in q)) {
    const user = await repo.findUserIdByEmail(ctx.db, q.email);
    if (!user) throw new AppError('not_found', `No account has the email ${q.email}.`);
    userId = user.id;
  }
  const file = path.resolve(out);
  return writeWhole(ctx, settings, { scope: userId ? 'writer' : 'site', userId }, `${file}.partial`, (partial) => rename(partial, file));
}
