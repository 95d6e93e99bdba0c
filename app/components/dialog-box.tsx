import type { ReactNode } from 'react';
import type { FeedbackKind } from '~/lib/page/feedback';

/** The colour of each kind, as daisyUI alert classes (toasts and the dialogs' round icon). */
export const ALERT_CLASS: Record<FeedbackKind, string> = {
  success: 'alert-success',
  error: 'alert-error',
  warning: 'alert-warning',
  info: 'alert-info',
};

export function KindIcon({ kind, className = 'h-6 w-6' }: { kind: FeedbackKind; className?: string }) {
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

/**
 * The inside of every dialog of the site: the kind's round icon, the title, the text and the
 * buttons, centred in a daisyUI modal box. The <dialog> around it is the caller's: the toasts'
 * and dialogs' own (feedback-view.tsx), or a page's server-rendered one (the wishlist's
 * confirmation without JavaScript).
 */
export function DialogBox({ labelId, textId, kind, title, text, detail, actions, footer }: {
  labelId: string;
  textId: string;
  kind: FeedbackKind;
  title: string;
  text?: ReactNode;
  /** A line under the text (what the dialog is about, when the page around it does not say). */
  detail?: ReactNode;
  actions: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="modal-box text-center">
      <div className={`mx-auto mb-3 flex h-14 w-14 items-center justify-center rounded-full ${ALERT_CLASS[kind]} alert p-0`}>
        <KindIcon kind={kind} className="h-8 w-8" />
      </div>
      <h2 id={labelId} className="text-2xl font-bold">{title}</h2>
      {text ? <p id={textId} className="mt-2 text-base">{text}</p> : null}
      {detail ? <p className="mt-2 break-words text-sm font-semibold opacity-85">{detail}</p> : null}
      <div className="modal-action flex-wrap justify-center">{actions}</div>
      {footer ? <p className="mt-4 border-t border-base-300 pt-3 text-sm">{footer}</p> : null}
    </div>
  );
}
