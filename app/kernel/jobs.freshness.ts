import { type ViewerWrites, unshown } from '~/db/freshness-kit';

/** The job queue shows on no page (docs/decisions/076, 078). */
export const JOBS_VIEWER_WRITES: ViewerWrites = {
  jobs: unshown,
};
