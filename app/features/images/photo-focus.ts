import type { CSSProperties } from 'react';

/**
 * A photo's focus (docs/decisions/040-photo-focus.md): the writer picks one of nine
 * positions, or "Automatic", which is the point the image pipeline found (sharp's attention
 * strategy). Client-safe and without zod, so the pages that only show photos ship none of it.
 */
export const PHOTO_FOCUS_POSITIONS = ['top-left', 'top', 'top-right', 'left', 'center', 'right', 'bottom-left', 'bottom', 'bottom-right'] as const;
export type PhotoFocusPosition = (typeof PHOTO_FOCUS_POSITIONS)[number];

export const PHOTO_FOCUS_AUTO = 'auto';
export const PHOTO_FOCUS_CHOICES = [PHOTO_FOCUS_AUTO, ...PHOTO_FOCUS_POSITIONS] as const;
export type PhotoFocusChoice = (typeof PHOTO_FOCUS_CHOICES)[number];

export const PHOTO_FOCUS_LABELS: Record<PhotoFocusChoice, string> = {
  auto: 'Automatic',
  'top-left': 'Top left',
  top: 'Top',
  'top-right': 'Top right',
  left: 'Left',
  center: 'Centre',
  right: 'Right',
  'bottom-left': 'Bottom left',
  bottom: 'Bottom',
  'bottom-right': 'Bottom right',
};

const STEPS = [0, 50, 100] as const;

/** A position as a point in percent (the same numbers CSS object-position takes). */
export function positionPoint(position: PhotoFocusPosition): { x: number; y: number } {
  const index = PHOTO_FOCUS_POSITIONS.indexOf(position);
  return { x: STEPS[index % 3]!, y: STEPS[Math.floor(index / 3)]! };
}

/** The position nearest a point in percent: a click on the thumbnail picks the third it fell in. */
export function nearestPosition(x: number, y: number): PhotoFocusPosition {
  const third = (v: number) => Math.min(2, Math.max(0, Math.floor((v / 100) * 3)));
  return PHOTO_FOCUS_POSITIONS[third(y) * 3 + third(x)]!;
}

/** What the site showed before photos had a focus, and still shows when none is known (a little above the middle, where heads are). */
export const DEFAULT_PHOTO_POSITION = '50% 30%';

/**
 * The stored focus as a CSS object-position: the writer's choice first, then the computed point,
 * else null (the default applies). The presenter sends this to the pages and the API.
 */
export function photoPosition(choice: PhotoFocusPosition | null, x: number | null, y: number | null): string | null {
  if (choice) {
    const point = positionPoint(choice);
    return `${point.x}% ${point.y}%`;
  }
  return x === null || y === null ? null : `${x}% ${y}%`;
}

/** The one style every cropped blog photo gets (cards, the blog page, the wishlist). */
export function photoFocusStyle(position: string | null | undefined): CSSProperties {
  return { objectPosition: position ?? DEFAULT_PHOTO_POSITION };
}
