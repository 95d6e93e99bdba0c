import { everyone, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the images feature's table makes stale (docs/decisions/076, 078). */
export const IMAGES_VIEWER_WRITES: ViewerWrites = {
  image_focus: everyone,
};
