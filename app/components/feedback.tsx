import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { DialogOptions, FlashMessage, ToastOptions } from '~/lib/page/feedback';
import type { DialogItem, ToastItem } from './feedback-view';
import { onDemand } from './on-demand';

// The toasts' and dialogs' own code loads when the first one is shown (docs/decisions/038).
const Toast = onDemand(() => import('./feedback-view').then((m) => ({ default: m.Toast })), {
  serverMarkup: '.feedback-toast',
});
const FeedbackDialog = onDemand(() => import('./feedback-view').then((m) => ({ default: m.FeedbackDialog })), {
  serverMarkup: '[data-testid="feedback-dialog"]',
});

interface FeedbackApi {
  /** A toast in the top-right corner, announced politely to screen readers, gone after its duration. */
  toast(options: ToastOptions): void;
  /** A modal dialog; resolves true when confirmed, false when cancelled or dismissed. */
  dialog(options: DialogOptions): Promise<boolean>;
}

const FeedbackContext = createContext<FeedbackApi | null>(null);

export function useFeedback(): FeedbackApi {
  const api = useContext(FeedbackContext);
  if (!api) throw new Error('useFeedback must be used inside <FeedbackProvider>');
  return api;
}

let nextId = 1;

/**
 * The one toast-and-dialog set of the site (docs/product.md#messages). Works from the first server render: a
 * flash message arriving with the page is rendered visible in the HTML (a toast fades out by CSS
 * alone), so forms posted without JavaScript still show their outcome.
 */
export function FeedbackProvider({ children, flash }: { children: ReactNode; flash: (FlashMessage & { id: string }) | null }) {
  const [toasts, setToasts] = useState<ToastItem[]>(() =>
    flash?.type === 'toast' ? [{ ...flash, id: nextId++ }] : [],
  );
  const [dialogs, setDialogs] = useState<DialogItem[]>(() =>
    flash?.type === 'dialog' ? [{ ...flash, id: nextId++, resolve: () => {} }] : [],
  );
  const seenFlash = useRef(flash?.id);

  const toast = useCallback((options: ToastOptions) => {
    const item = { ...options, id: nextId++ };
    setToasts((list) => [...list, item]);
  }, []);

  const dialog = useCallback(
    (options: DialogOptions) =>
      new Promise<boolean>((resolve) => {
        setDialogs((list) => [...list, { ...options, id: nextId++, resolve }]);
      }),
    [],
  );

  // A flash arriving with a later navigation (after an action's redirect).
  useEffect(() => {
    if (!flash || flash.id === seenFlash.current) return;
    seenFlash.current = flash.id;
    if (flash.type === 'toast') toast(flash);
    else void dialog(flash);
  }, [flash, toast, dialog]);

  const api = useMemo(() => ({ toast, dialog }), [toast, dialog]);
  const current = dialogs[0];

  return (
    <FeedbackContext.Provider value={api}>
      {children}
      <div className="toast toast-top toast-end z-[60] mt-16" role="status" aria-live="polite" aria-atomic="false" data-testid="toasts">
        {toasts.map((t) => (
          <Toast key={t.id} item={t} onDone={() => setToasts((list) => list.filter((x) => x.id !== t.id))} />
        ))}
      </div>
      {current ? (
        <FeedbackDialog
          key={current.id}
          item={current}
          onClose={(confirmed) => {
            current.resolve(confirmed);
            setDialogs((list) => list.slice(1));
          }}
        />
      ) : null}
    </FeedbackContext.Provider>
  );
}
