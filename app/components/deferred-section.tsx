import { type ComponentType, Suspense, use, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useNearViewport } from './use-near-viewport';

type Loaded<P> = { default: ComponentType<P> };

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';
const TYPED = 'textarea, input:not([type=hidden],[type=checkbox],[type=radio],[type=submit],[type=button])';

/**
 * A section below the first screen (the home page's lower sections, a post's end and its comments)
 * whose client code loads only when it comes near the viewport (docs/decisions/036, 077). The
 * server renders it whole, so its HTML is in the page with or without JavaScript. In the browser
 * the section stays that server HTML, kept as it is (React does not look inside markup it was
 * handed as HTML), until it is within 300 px of the viewport; then its module loads and the live
 * section takes the place of the identical markup, focus, typed text and open disclosures kept. A client-side
 * navigation to the page, which has no server HTML, renders the section at once.
 *
 * The markup shows the props the server rendered it with. When they change before the reader
 * comes near (the page's data revalidated after an action elsewhere on it: a follow from the
 * byline), the section goes live at once, so it never shows what is no longer so
 * (docs/decisions/092).
 *
 * Why markup and not a dehydrated Suspense boundary: React hydrates such a boundary as soon as any
 * context above it changes, and React Router changes its own right after every page load (the
 * routes found for the page's links), so the code would load at once.
 */
export function deferredSection<P extends object>(load: () => Promise<Loaded<P>>): ComponentType<P> & { ready: Promise<unknown> } {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  // On the server the module is loaded with the page's module and marked settled, so React's `use`
  // reads it without suspending: the HTML is rendered in place, never streamed. The page's loader
  // awaits `ready` (a route module may be loaded by its first request).
  const ready: Promise<Loaded<P>> = import.meta.env.SSR ? load() : released.then(load);
  void ready.then((loaded) => Object.assign(ready, { status: 'fulfilled', value: loaded }));

  function Live({ props }: { props: P }) {
    const { default: Section } = use(ready);
    return <Section {...props} />;
  }

  function DeferredSection(props: P) {
    const id = useId();
    // The section's server HTML, read from the page while hydrating; null on the server and after
    // a client-side navigation.
    const [serverHtml] = useState(() => (typeof document === 'undefined' ? null : (document.getElementById(id)?.innerHTML ?? null)));
    const [live, setLive] = useState(serverHtml === null);
    if (live) release();
    // What the markup shows: the props it was hydrated with, compared as the data they are.
    const [shown] = useState(() => (serverHtml === null ? null : JSON.stringify(props)));
    const changed = !live && shown !== null && JSON.stringify(props) !== shown;
    const [ref, near] = useNearViewport<HTMLDivElement>();
    const focused = useRef(-1);
    const typed = useRef<{ values: string[]; open: boolean[] } | null>(null);
    useEffect(() => {
      if (live || !(near || changed)) return;
      release();
      void ready.then(() => {
        // Keyboard focus may already be inside (tabbing scrolls it near): put it back after.
        const box = ref.current;
        focused.current = box ? [...box.querySelectorAll(FOCUSABLE)].indexOf(document.activeElement as Element) : -1;
        // So may text typed into the markup's fields (a comment begun) and a disclosure opened (Report):
        // the live section takes them over.
        typed.current = box
          ? { values: [...box.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TYPED)].map((field) => field.value), open: [...box.querySelectorAll('details')].map((d) => d.open) }
          : null;
        setLive(true);
      });
    }, [near, changed, live, ref]);
    useLayoutEffect(() => {
      if (!live || !typed.current) return;
      const fields = ref.current?.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(TYPED) ?? [];
      typed.current.values.forEach((value, i) => {
        if (fields[i] && value) fields[i].value = value;
      });
      const disclosures = ref.current?.querySelectorAll('details') ?? [];
      typed.current.open.forEach((open, i) => {
        if (disclosures[i] && open) disclosures[i].open = true;
      });
      typed.current = null;
    }, [live, ref]);
    useLayoutEffect(() => {
      if (!live || focused.current < 0) return;
      (ref.current?.querySelectorAll(FOCUSABLE)[focused.current] as HTMLElement | undefined)?.focus();
      focused.current = -1;
    }, [live, ref]);
    if (!live) return <div id={id} ref={ref} dangerouslySetInnerHTML={{ __html: serverHtml ?? '' }} suppressHydrationWarning />;
    // `data-live` marks a section whose code runs (absent in the server's HTML, so hydration matches).
    return (
      <div id={id} ref={ref} data-live={typeof document === 'undefined' ? undefined : ''}>
        <Suspense fallback={null}>
          <Live props={props} />
        </Suspense>
      </div>
    );
  }
  return Object.assign(DeferredSection, { ready });
}
