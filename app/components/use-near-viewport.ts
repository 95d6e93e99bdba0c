import { type RefObject, useEffect, useRef, useState } from 'react';

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
