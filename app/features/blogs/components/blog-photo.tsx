import { imageSrcSet } from '~/features/images/images.schema';
import { photoFocusStyle } from '~/features/images/photo-focus';

export interface BlogPhotoProps {
  src: string;
  sizes: string;
  className?: string;
  eager?: boolean;
  /** The photo's focus as the presenter gives it (`photo_position`): what stays in view when it is cropped. */
  position?: string | null;
}

/**
 * A blog's photo with the pipeline's widths in `srcset`; `sizes` says how wide it is shown. Every
 * blog photo is cropped (object-cover), so each keeps its focus (decision 040).
 */
export function BlogPhoto({ src, sizes, className, eager = false, position }: BlogPhotoProps) {
  return (
    <img
      src={src}
      srcSet={imageSrcSet(src)}
      sizes={sizes}
      alt=""
      width={800}
      height={500}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      className={className}
      style={photoFocusStyle(position)}
    />
  );
}
