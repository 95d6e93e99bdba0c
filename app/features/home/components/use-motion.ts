import { type RefObject, useEffect, useRef, useState, useSyncExternalStore } from 'react';

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

/**
 * True once the element comes within `margin` of the viewport (with at least `threshold` of it
 * showing). Sections below the fold use it to fetch their animation code only when a visitor
 * scrolls toward them, keeping the first load small (the home page's JavaScript
 * budget, docs/product.md#speed-safety-and-accessibility); the counters use it to start counting once they are in view.
 */
export function useNearViewport<T extends Element>(margin = '300px', threshold = 0): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || near) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: margin, threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [margin, threshold, near]);
  return [ref, near];
}
