import { useEffect, useRef } from 'react';
import { type DialogOptions, defaultDuration, type ToastOptions } from '~/lib/page/feedback';
import { ALERT_CLASS, DialogBox, KindIcon } from './dialog-box';

/** The toasts and dialogs themselves, loaded when the first is shown (components/feedback.tsx, docs/decisions/038). */

export type ToastItem = ToastOptions & { id: number };
export type DialogItem = DialogOptions & { id: number; resolve: (confirmed: boolean) => void };

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
    </div>
  );
}

export function FeedbackDialog({ item, onClose }: { item: DialogItem; onClose: (confirmed: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const initialFocus = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const kind = item.kind ?? 'success';
  const confirm = !!item.cancelText;
  // The parent passes a new onClose on every render; the modal must not reopen because of it.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  // A timed dialog offering a second button (the wishlist's Undo) waits while the reader goes
  // for it: pointing at that button or pressing a key in the dialog stops the clock (WCAG 2.2.1).
  const hold = () => clearTimeout(timer.current);

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
    if (item.timer) timer.current = setTimeout(() => closeRef.current(true), item.timer);
    return () => {
      clearTimeout(timer.current);
      if (dialog.open) dialog.close();
      if (previous?.isConnected && previous !== document.body) previous.focus();
    };
  }, [item.timer]);

  const labelId = `dialog-title-${item.id}`;
  const textId = `dialog-text-${item.id}`;
  return (
    <dialog
      ref={ref}
      open
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={labelId}
      aria-describedby={item.text ? textId : undefined}
      data-testid="feedback-dialog"
      data-kind={kind}
      onKeyDown={item.secondary ? hold : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose(false);
      }}
    >
      <DialogBox
        labelId={labelId}
        textId={textId}
        kind={kind}
        title={item.title}
        text={item.text}
        actions={
          <>
            {confirm ? (
              <button type="button" className="btn" ref={initialFocus} onClick={() => onClose(false)}>
                {item.cancelText}
              </button>
            ) : null}
            {item.secondary ? (
              <button
                type="button"
                className="btn btn-outline"
                onPointerEnter={hold}
                onClick={() => {
                  item.secondary?.onClick();
                  onClose(false);
                }}
              >
                {item.secondary.text}
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
          </>
        }
        footer={item.footer ? <a className="link" href={item.footer.href}>{item.footer.text}</a> : null}
      />
    </dialog>
  );
}
