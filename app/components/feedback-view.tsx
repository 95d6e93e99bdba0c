import { useEffect, useRef } from 'react';
import { type DialogOptions, defaultDuration, type FeedbackKind, type ToastOptions } from '~/lib/feedback';

/** The toasts and dialogs themselves, loaded when the first is shown (components/feedback.tsx, docs/decisions/038). */

export type ToastItem = ToastOptions & { id: number };
export type DialogItem = DialogOptions & { id: number; resolve: (confirmed: boolean) => void };

const ALERT_CLASS: Record<FeedbackKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  warning: 'alert-warning',
  info: 'alert-info',
};

function KindIcon({ kind, className = 'h-6 w-6' }: { kind: FeedbackKind; className?: string }) {
  const paths: Record<FeedbackKind, string> = {
    success: 'M5 13l4 4L19 7',
    error: 'M6 6l12 12M18 6L6 18',
    warning: 'M12 8v5m0 3.5v.5',
    info: 'M12 11v6m0-9.5v.5',
  };
  return (
    <svg className={className} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" aria-hidden="true">
      <path d={paths[kind]} />
    </svg>
  );
}

export function Toast({ item, onDone }: { item: ToastItem; onDone: () => void }) {
  const kind = item.kind ?? 'success';
  const duration = item.duration ?? defaultDuration(kind);
  useEffect(() => {
    const timer = setTimeout(onDone, duration);
    return () => clearTimeout(timer);
  }, [duration, onDone]);
  return (
    <div
      className={`alert ${ALERT_CLASS[kind]} feedback-toast shadow-lg`}
      style={{ ['--toast-ms' as string]: `${duration}ms` }}
      data-kind={kind}
    >
      <KindIcon kind={kind} className="h-5 w-5" />
      <span>{item.text}</span>
      {item.action ? (
        <button
          type="button"
          className="btn btn-sm"
          onClick={() => {
            item.action?.onClick();
            onDone();
          }}
        >
          {item.action.text}
        </button>
      ) : null}
    </div>
  );
}

export function FeedbackDialog({ item, onClose }: { item: DialogItem; onClose: (confirmed: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const initialFocus = useRef<HTMLButtonElement>(null);
  const kind = item.kind ?? 'success';
  const confirm = !!item.cancelText;
  // The parent passes a new onClose on every render; the modal must not reopen because of it.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // Read before anything in the dialog takes focus: the control that opened it, or the field a
    // failed form just focused (effects of the page run before this one), gets focus back.
    const previous = document.activeElement as HTMLElement | null;
    if (dialog.open) dialog.close(); // rendered open by the server: reopen as a modal
    dialog.showModal();
    // A confirmation starts on its safe answer (Cancel), anything else on OK (WAI-ARIA APG dialog pattern).
    initialFocus.current?.focus();
    const timer = item.timer ? setTimeout(() => closeRef.current(true), item.timer) : undefined;
    return () => {
      clearTimeout(timer);
      if (dialog.open) dialog.close();
      if (previous?.isConnected && previous !== document.body) previous.focus();
    };
  }, [item.timer]);

  return (
    <dialog
      ref={ref}
      open
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={`dialog-title-${item.id}`}
      aria-describedby={item.text ? `dialog-text-${item.id}` : undefined}
      data-testid="feedback-dialog"
      data-kind={kind}
      onCancel={(event) => {
        event.preventDefault();
        onClose(false);
      }}
    >
      <div className="modal-box text-center">
        <div className={`mx-auto mb-3 flex h-14 w-14 items-center justify-center rounded-full ${ALERT_CLASS[kind]} alert p-0`}>
          <KindIcon kind={kind} className="h-8 w-8" />
        </div>
        <h2 id={`dialog-title-${item.id}`} className="text-2xl font-bold">{item.title}</h2>
        {item.text ? <p id={`dialog-text-${item.id}`} className="mt-2 text-base">{item.text}</p> : null}
        <div className="modal-action justify-center">
          {confirm ? (
            <button type="button" className="btn" ref={initialFocus} onClick={() => onClose(false)}>
              {item.cancelText}
            </button>
          ) : null}
          {item.action ? (
            <a className="btn btn-primary" href={item.action.href}>
              {item.action.text}
            </a>
          ) : null}
          <form method="dialog">
            <button type="submit" className={`btn ${confirm ? 'btn-error' : item.action ? 'btn-ghost' : 'btn-primary'}`} ref={confirm ? undefined : initialFocus} onClick={(e) => { e.preventDefault(); onClose(true); }}>
              {item.confirmText ?? 'OK'}
            </button>
          </form>
        </div>
        {item.footer ? (
          <p className="mt-4 border-t border-base-300 pt-3 text-sm">
            <a className="link" href={item.footer.href}>{item.footer.text}</a>
          </p>
        ) : null}
      </div>
    </dialog>
  );
}
