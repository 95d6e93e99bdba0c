import { lazy, Suspense } from 'react';
import { useMotionAllowed, useNearViewport } from './use-motion';

/** The 8 fixed pictures of the 'studio frame' (spec §2), made by the project (public/images). */
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

// Loaded only once the page runs (and motion is welcome): the first paint needs no marquee code.
const MovingRow = lazy(() => import('./gallery-marquee'));

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

/** Server HTML, no-JS and reduced motion: the same row, still, scrollable by hand or keyboard. */
export function StillRow() {
  return (
    <div className="flex overflow-x-auto pb-2" tabIndex={0} role="group" aria-label="Gallery pictures" data-testid="gallery-still">
      {pictures}
    </div>
  );
}

/** Home's gallery, 'studio frame' (spec §2): an auto-scrolling row, speed 50, no gradient, pausing on hover. */
export function Gallery({ standalone = false }: { standalone?: boolean }) {
  const Heading = standalone ? 'h1' : 'h2';
  const motion = useMotionAllowed();
  const [ref, near] = useNearViewport<HTMLElement>();
  const moving = motion && near;
  return (
    <section ref={ref} className="w-full py-14" aria-labelledby="gallery-heading">
      <div className="mx-auto max-w-6xl px-4 text-center">
        <Heading id="gallery-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">studio frame</Heading>
        <p className="mx-auto mt-2 max-w-xl opacity-80">Every picture tells a story — here are a few of ours, caught between golden hour and dusk.</p>
      </div>
      <div className="mt-8 min-h-52 sm:min-h-64">{moving ? (
          <Suspense fallback={<StillRow />}>
            <MovingRow />
          </Suspense>
        ) : (
          <StillRow />
        )}</div>
    </section>
  );
}
