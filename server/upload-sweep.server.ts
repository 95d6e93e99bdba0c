import { imageStoreFor } from '~/features/images/image-store.server';
import { type SweepResult, sweepOrphanedImages, UPLOAD_GRACE_MS } from '~/features/images/image-sweep.service.server';
import { type AppDeps, serviceContext } from './context.server';

/** How often each instance sweeps; a random offset keeps several instances from sweeping together. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** One sweep of the configured image store (disk or S3): `npm run sweep:uploads` and the hourly job. */
export function sweepUploads(deps: AppDeps, graceMs = UPLOAD_GRACE_MS): Promise<SweepResult> {
  return sweepOrphanedImages(serviceContext(deps, null), imageStoreFor(deps.config), graceMs);
}

/**
 * Sweeps about once an hour, the first time at a random point of the first hour, for as long as
 * the process runs. A failed sweep (store or database away) is logged and tried again next time.
 * Answers a function that stops it.
 */
export function scheduleUploadSweep(deps: AppDeps): () => void {
  let timer: NodeJS.Timeout;
  const next = (delay: number) => {
    timer = setTimeout(async () => {
      await sweepUploads(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'orphaned-image sweep failed; will retry'));
      next(SWEEP_EVERY_MS * (0.9 + Math.random() * 0.2));
    }, delay);
    timer.unref();
  };
  next(SWEEP_EVERY_MS * Math.random());
  return () => clearTimeout(timer);
}
