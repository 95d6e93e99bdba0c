import { type RefObject, useEffect } from 'react';

/**
 * Progressive enhancement for a <details> menu (it opens and closes without JavaScript):
 * with JavaScript it also closes on an outside press, on Escape (focus returns to the toggle)
 * and when one of its links or buttons is chosen (docs/product.md#navigation-bar).
 */
export function useDisclosure(ref: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (focusToggle: boolean) => {
      if (!details.open) return;
      details.open = false;
      if (focusToggle) details.querySelector('summary')?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) close(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && details.open) {
        event.preventDefault();
        close(true);
      }
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target as HTMLElement;
      if (target.closest('a, [role="menuitem"], button[type="submit"]') && !target.closest('summary')) close(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    details.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      details.removeEventListener('click', onClick);
    };
  }, [ref]);
}
