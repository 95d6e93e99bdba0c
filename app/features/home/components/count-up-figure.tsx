import { useEffect, useState } from 'react';
import { useNearViewport } from '~/components/use-near-viewport';

/** react-countup's default curve: fast at first, settling on the figure. */
const easeOutExpo = (t: number) => (t >= 1 ? 1 : 1 - 2 ** (-10 * t));

/**
 * Counts from 0 to `end` over `seconds` once at least 30% of it is in view (docs/product.md#achievements). Loaded
 * lazily by achievements.tsx. A few lines instead of react-countup and
 * react-intersection-observer: those were 5.5 KB of the home page's 120 KB JavaScript budget.
 */
export default function CountUpFigure({ end, suffix, seconds }: { end: number; suffix: string; seconds: number }) {
  const [ref, inView] = useNearViewport<HTMLSpanElement>('0px', 0.3);
  const [value, setValue] = useState(0);
  useEffect(() => {
    if (!inView) return;
    const started = performance.now();
    let frame = 0;
    const tick = (now: number) => {
      const progress = Math.min(1, (now - started) / (seconds * 1000));
      setValue(Math.round(end * easeOutExpo(progress)));
      if (progress < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [inView, end, seconds]);
  return (
    <span ref={ref}>
      {value}
      {suffix}
    </span>
  );
}
