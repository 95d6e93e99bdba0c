import { lazy, Suspense } from 'react';
import type { Figure as SiteFigure } from '../site-figures';
import { useNearViewport } from '~/components/use-near-viewport';
import { useMotionAllowed } from './use-motion';

export const COUNT_UP_SECONDS = 2;

// The counting code loads after the first paint; until then (and without JS or with reduced
// motion) the final figures stand.
const CountUpFigure = lazy(() => import('./count-up-figure'));

function Figure({ end, suffix, near }: { end: number; suffix: string; near: boolean }) {
  const animate = useMotionAllowed();
  const final = `${end}${suffix}`;
  if (!animate) return <>{final}</>;
  const start = `0${suffix}`;
  if (!near) return <>{start}</>;
  return (
    <Suspense fallback={start}>
      <CountUpFigure end={end} suffix={suffix} seconds={COUNT_UP_SECONDS} />
    </Suspense>
  );
}

/**
 * Home's achievements (docs/product.md#achievements): four counters that count up over 2 s once scrolled into view,
 * showing the product's fixed figures unless the operator set others (site-figures.ts,
 * docs/decisions/051).
 */
export function Achievements({ figures, standalone = false }: { figures: SiteFigure[]; standalone?: boolean }) {
  const Heading = standalone ? 'h1' : 'h2';
  const [ref, near] = useNearViewport<HTMLElement>();
  return (
    <section ref={ref} className="mx-auto w-full max-w-6xl px-4 pb-2 pt-14" aria-labelledby="achievements-heading">
      <Heading id="achievements-heading" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">Our Achievements</Heading>
      <dl className="mt-8 grid grid-cols-2 gap-4 lg:grid-cols-4" data-testid="achievements">
        {figures.map((a) => (
          <div key={a.label} className="flex flex-col-reverse items-center justify-center rounded-box bg-base-200 px-3 py-6 text-center shadow-sm ring-1 ring-base-300">
            <dt className="mt-1 text-xs font-medium uppercase tracking-wide opacity-85 sm:text-sm">{a.label}</dt>
            <dd className="whitespace-nowrap text-3xl font-extrabold tabular-nums text-primary sm:text-5xl" data-testid="achievement-figure">
              <Figure end={a.end} suffix={a.suffix} near={near} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
