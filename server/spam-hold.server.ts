import { releaseExpiredHolds } from '~/features/moderation/spam-hold.service.server';
import { type AppDeps, serviceContext } from './context.server';

/**
 * How often each instance ends the spam holds whose days have passed (docs/decisions/029): a
 * held blog reaches the sitemap, feeds, featured and the newsletter at most this long after its
 * writer's N days. Releasing is one UPDATE of the rows due, so several instances may run it.
 */
export const RELEASE_EVERY_MS = 5 * 60 * 1000;

/** Releases now, then every RELEASE_EVERY_MS; a failure is logged and tried again. Answers a stop function. */
export function scheduleHoldRelease(deps: AppDeps): () => void {
  let timer: NodeJS.Timeout;
  let stopped = false;
  const run = async () => {
    const { released } = await releaseExpiredHolds(serviceContext(deps, null)).catch((error: unknown) => {
      deps.log.warn({ err: error }, 'spam-hold release failed; will retry');
      return { released: 0 };
    });
    if (released > 0) deps.log.info({ released }, 'spam hold ended for blogs');
    if (stopped) return;
    timer = setTimeout(run, RELEASE_EVERY_MS);
    timer.unref();
  };
  timer = setTimeout(run, 0);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
