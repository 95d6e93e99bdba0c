import type { ServiceContext } from '~/lib/core/service-context';
import type { ImageStore } from './image-store.server';
import { storedImageId } from './images.service.server';
import { deleteImageFocus, referencedImageUrls } from './images.repo.server';

/** Uploads younger than this are kept even when nothing refers to them yet: a form may still be open. */
export const UPLOAD_GRACE_MS = 24 * 60 * 60 * 1000;

export interface SweepResult {
  /** Objects looked at (every width counts). */
  scanned: number;
  /** Objects removed: unreferenced and older than the grace period. */
  removed: number;
}

/**
 * Removes images nobody refers to: uploaded through `POST /api/images` for a form that was never
 * sent, replaced on a blog edit, or left half-written while the store was away. An image counts
 * as referenced when any column that keeps image URLs names its id (docs/decisions/018). Only
 * objects older than `graceMs` go, so an upload whose blog is still being written survives.
 * Safe on several instances at once: the store is listed before the references are read, and
 * removing an object twice is not an error.
 */
export async function sweepOrphanedImages(ctx: ServiceContext, store: ImageStore, graceMs = UPLOAD_GRACE_MS): Promise<SweepResult> {
  const cutoff = ctx.now().getTime() - graceMs;
  const candidates: string[] = [];
  let scanned = 0;
  for await (const object of store.list()) {
    scanned++;
    if (object.modified.getTime() <= cutoff) candidates.push(object.name);
  }
  if (candidates.length === 0) return { scanned, removed: 0 };
  const referenced = new Set((await referencedImageUrls(ctx.db)).map(storedImageId));
  let removed = 0;
  const gone = new Set<string>();
  for (const name of candidates) {
    const id = storedImageId(name.replace(/\.tmp$/, ''));
    if (referenced.has(id)) continue;
    await store.delete(name);
    if (id) gone.add(id);
    removed++;
  }
  await deleteImageFocus(ctx.db, [...gone]);
  if (removed > 0) ctx.log.info({ scanned, removed }, 'orphaned images removed');
  return { scanned, removed };
}
