import { type MouseEvent, useState } from 'react';
import { imageSrcSet } from '~/features/images/images.schema';
import {
  nearestPosition,
  PHOTO_FOCUS_AUTO,
  PHOTO_FOCUS_LABELS,
  PHOTO_FOCUS_POSITIONS,
  type PhotoFocusChoice,
  positionPoint,
} from '~/features/images/photo-focus';

export interface PhotoFocusFieldProps {
  defaultValue: PhotoFocusChoice;
  /** The photo the focus is for: a newly chosen file, or the blog's current photo. */
  preview: { src: string; alt: string; testId?: string } | null;
  /** Where "Automatic" puts the focus on the shown photo, when it is known (the current photo's computed point). */
  autoPosition: string | null;
  /** JavaScript has loaded: a click on the photo picks the position too. */
  enhanced: boolean;
  error?: string;
}

const RADIO = 'radio radio-primary radio-sm';

/**
 * The photo's focus (docs/decisions/040): a group of radio buttons, Automatic and nine
 * positions in a 3 × 3 grid, so it works without JavaScript and from the keyboard (arrow keys
 * move within the group). With JavaScript a click on the photo picks the nearest position, and a
 * marker shows the chosen point on the photo.
 */
export function PhotoFocusField({ defaultValue, preview, autoPosition, enhanced, error }: PhotoFocusFieldProps) {
  const [focus, setFocus] = useState<PhotoFocusChoice>(defaultValue);
  const point = focus === PHOTO_FOCUS_AUTO ? null : positionPoint(focus);
  const marker = point ? `${point.x}% ${point.y}%` : autoPosition;

  function pick(event: MouseEvent<HTMLImageElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    setFocus(nearestPosition(((event.clientX - box.left) / box.width) * 100, ((event.clientY - box.top) / box.height) * 100));
  }

  const radio = (value: PhotoFocusChoice) => (
    <label key={value} className="flex cursor-pointer items-center gap-2 text-sm">
      <input
        type="radio"
        name="photo_focus"
        value={value}
        className={RADIO}
        checked={focus === value}
        onChange={() => setFocus(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'photo_focus-error' : undefined}
      />
      {PHOTO_FOCUS_LABELS[value]}
    </label>
  );

  return (
    <fieldset className="mt-4" aria-describedby="photo_focus-hint" data-testid="photo-focus">
      <legend className="mb-1 font-semibold">Photo focus</legend>
      <p id="photo_focus-hint" className="mb-2 text-sm opacity-75">
        The part of the photo kept in view where it is cropped (cards and the blog page). Automatic keeps the subject the site finds.
        {enhanced && preview ? ' You can also click the photo.' : ''}
      </p>
      <div className="flex flex-wrap items-start gap-4">
        {preview ? (
          <div className="relative inline-block">
            <img
              src={preview.src}
              srcSet={imageSrcSet(preview.src)}
              sizes="256px"
              alt={preview.alt}
              className={`h-32 w-auto rounded-box ${enhanced ? 'cursor-crosshair' : ''}`}
              onClick={enhanced ? pick : undefined}
              data-testid={preview.testId}
            />
            {marker ? (
              <span
                className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white bg-primary/60 shadow"
                style={{ left: marker.split(' ')[0], top: marker.split(' ')[1] }}
                aria-hidden="true"
                data-testid="photo-focus-marker"
              />
            ) : null}
          </div>
        ) : null}
        <div>
          {radio(PHOTO_FOCUS_AUTO)}
          <div className="mt-2 grid grid-cols-3 gap-x-4 gap-y-2">{PHOTO_FOCUS_POSITIONS.map(radio)}</div>
        </div>
      </div>
      {error ? (
        <p id="photo_focus-error" className="mt-1 text-sm text-error" data-testid="photo_focus-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
