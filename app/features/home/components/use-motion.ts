import { useEffect, useState, useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void) {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** The visitor's reduced-motion wish; the server (and hydration) assume none. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(REDUCED_MOTION).matches, () => false);
}

/** True once the page runs in a browser: client-only enhancements wait for it, so hydration matches. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** Animate only in a browser and only when the visitor has not asked for less motion. */
export function useMotionAllowed(): boolean {
  const hydrated = useHydrated();
  const reduced = usePrefersReducedMotion();
  return hydrated && !reduced;
}
