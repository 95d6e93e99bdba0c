import CountUpImport from 'react-countup';
import { useInView } from 'react-intersection-observer';
import { cjsDefault } from './cjs-default';

const CountUp = cjsDefault(CountUpImport);

/** Counts from 0 to `end` once it first scrolls into view. Loaded lazily by achievements.tsx. */
export default function CountUpFigure({ end, suffix, seconds }: { end: number; suffix: string; seconds: number }) {
  const { ref, inView } = useInView({ triggerOnce: true, threshold: 0.3 });
  return (
    <span ref={ref}>
      {inView ? <CountUp start={0} end={end} duration={seconds} suffix={suffix} separator="" useEasing /> : `0${suffix}`}
    </span>
  );
}
