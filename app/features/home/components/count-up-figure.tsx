import { useEffect, useRef, useState } from 'react';

/** react-countup's default curve: fast at first, settling on the figure. */
const easeOutExpo = (t: number) => (t >= 1 ? 1 : 1 - 2 ** (-10 * t));

/**
 * Counts from 0 to `end` over `seconds` once at least 30% of it is in view (spec §2). Loaded
 * lazily by achievements.tsx. A dozen lines instead of react-countup and
 * react-intersection-observer: those were 5.5 KB of the home page's 120 KB JavaScript budget.
 */
export default function CountUpFigure({ end, suffix, seconds }: { end: number; suffix: string; seconds: number }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [value, setValue] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let frame = 0;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        const started = performance.now();
        const tick = (now: number) => {
          const progress = Math.min(1, (now - started) / (seconds * 1000));
          setValue(Math.round(end * easeOutExpo(progress)));
          if (progress < 1) frame = requestAnimationFrame(tick);
        };
        frame = requestAnimationFrame(tick);
      },
      { threshold: 0.3 },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [end, seconds]);
  return (
    <span ref={ref}>
      {value}
      {suffix}
    </span>
  );
}
