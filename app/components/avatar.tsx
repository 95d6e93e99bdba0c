import { DEFAULT_AVATAR } from '~/lib/core/display-name';

/** A round user photo, or the default avatar when the user has none (docs/product.md#navigation-bar). */
export function Avatar({ src, alt, size = 40, fetchPriority }: { src?: string | null; alt: string; size?: number; fetchPriority?: 'low' }) {
  return (
    <img
      src={src || DEFAULT_AVATAR}
      alt={alt}
      width={size}
      height={size}
      className="rounded-full object-cover bg-base-300"
      style={{ width: size, height: size }}
      referrerPolicy="no-referrer"
      decoding="async"
      fetchPriority={fetchPriority}
    />
  );
}
