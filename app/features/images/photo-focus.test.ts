import { describe, expect, it } from 'vitest';
import { photoWithSubject } from '../../../tests/support/images';
import { processImage } from './images.service.server';
import { DEFAULT_PHOTO_POSITION, nearestPosition, PHOTO_FOCUS_POSITIONS, photoFocusStyle, photoPosition, positionPoint } from './photo-focus';

describe('the focal point the pipeline finds (sharp attention strategy)', () => {
  for (const [what, at, width, height] of [
    ['a landscape photo, subject top left', { x: 18, y: 22 }, 1200, 800],
    ['a landscape photo, subject bottom right', { x: 85, y: 78 }, 1200, 800],
    ['a portrait photo, subject near the top', { x: 50, y: 15 }, 600, 1000],
    ['a portrait larger than the largest width, subject low and left', { x: 25, y: 80 }, 2000, 3000],
  ] as const) {
    it(`lands near the subject, away from the middle: ${what}`, async () => {
      const { focus } = await processImage(await photoWithSubject(at, width, height));
      if (!focus) throw new Error('no focal point found');
      expect(Math.abs(focus.x - at.x), `x ${focus.x} for ${at.x}`).toBeLessThanOrEqual(8);
      expect(Math.abs(focus.y - at.y), `y ${focus.y} for ${at.y}`).toBeLessThanOrEqual(8);
    });
  }
});

describe('the stored focus as object-position', () => {
  it("takes the writer's choice first, then the computed point, else none (the default shows)", () => {
    expect(photoPosition('top-right', 20, 30)).toBe('100% 0%');
    expect(photoPosition('center', null, null)).toBe('50% 50%');
    expect(photoPosition(null, 20, 30)).toBe('20% 30%');
    expect(photoPosition(null, null, null)).toBeNull();
    expect(photoFocusStyle(null)).toEqual({ objectPosition: DEFAULT_PHOTO_POSITION });
    expect(photoFocusStyle('20% 30%')).toEqual({ objectPosition: '20% 30%' });
  });

  it('maps a click on the thumbnail to the third it fell in, and each position back to its point', () => {
    expect(nearestPosition(5, 95)).toBe('bottom-left');
    expect(nearestPosition(50, 50)).toBe('center');
    expect(nearestPosition(100, 0)).toBe('top-right');
    for (const position of PHOTO_FOCUS_POSITIONS) {
      const { x, y } = positionPoint(position);
      expect(nearestPosition(x, y)).toBe(position);
    }
  });
});
