// The gallery's pictures, shared by the still row (gallery.tsx) and the lazily loaded moving
// row (gallery-marquee.tsx), so neither imports the other.
/** The 8 fixed pictures of the 'studio frame' (docs/product.md#gallery), made by the project (public/images). */
export const GALLERY_PICTURES = [
  { src: '/images/gallery-1.svg', alt: 'A road running toward the setting sun under a passing plane' },
  { src: '/images/gallery-2.svg', alt: 'A steaming cup of coffee before the evening sun' },
  { src: '/images/gallery-3.svg', alt: 'A laptop full of code on a desk under the moon' },
  { src: '/images/gallery-4.svg', alt: 'Balls of yarn with knitting needles and scissors' },
  { src: '/images/gallery-5.svg', alt: 'A camera beside an instant photo of a sunset' },
  { src: '/images/gallery-6.svg', alt: 'A hiker on a hill facing mountains at dusk' },
  { src: '/images/gallery-7.svg', alt: 'Palm trees on a beach at sunset' },
  { src: '/images/gallery-8.svg', alt: 'A city skyline lighting up at dusk' },
] as const;

export const GALLERY_SPEED = 50;

export function Picture({ src, alt }: { src: string; alt: string }) {
  return (
    <img
      src={src}
      alt={alt}
      width={320}
      height={240}
      loading="lazy"
      decoding="async"
      className="mx-2 h-48 w-64 rounded-box object-cover shadow-md ring-1 ring-base-300 sm:h-60 sm:w-80"
    />
  );
}

export const pictures = GALLERY_PICTURES.map((p) => <Picture key={p.src} {...p} />);
