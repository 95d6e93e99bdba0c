import { imageSrcSet } from '~/features/images/images.schema';

/** A blog's photo with the pipeline's widths in `srcset`; `sizes` says how wide it is shown. */
export function BlogPhoto({ src, sizes, className, eager = false }: { src: string; sizes: string; className?: string; eager?: boolean }) {
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
    />
  );
}
