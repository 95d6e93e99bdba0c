import { lazy, Suspense } from 'react';
import { pictures } from './gallery-pictures';
import { useNearViewport } from '~/components/use-near-viewport';
import { useMotionAllowed } from './use-motion';

// Loaded only once the page runs (and motion is welcome): the first paint needs no marquee code.
const MovingRow = lazy(() => import('./gallery-marquee'));

/** Server HTML, no-JS and reduced motion: the same row, still, scrollable by hand or keyboard. */
export function StillRow() {
  return (
    <div className="flex overflow-x-auto pb-2" tabIndex={0} role="group" aria-label="Gallery pictures" data-testid="gallery-still">
      {pictures}
    </div>
  );
}

/** Home's gallery, 'studio frame' (docs/product.md#gallery): an auto-scrolling row, speed 50, no gradient, pausing on hover. */
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
