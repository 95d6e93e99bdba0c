/** Toast and popup durations (docs/product.md#constants): 1.2 s like, 1.5 s most successes, 3 s others. */
export const FEEDBACK_MS = {
  like: 1200,
  success: 1500,
  other: 3000,
} as const;

export type FeedbackKind = 'success' | 'error' | 'warning' | 'info';

export interface ToastOptions {
  text: string;
  kind?: FeedbackKind;
  /** Milliseconds; defaults by kind (success 1.5 s, others 3 s). */
  duration?: number;
}

export interface DialogOptions {
  title: string;
  text?: string;
  kind?: FeedbackKind;
  /** Auto-close after this many milliseconds (the product's timed popups); omit to wait for OK. */
  timer?: number;
  /** The confirming button's label (default 'OK'). */
  confirmText?: string;
  /** Present for confirmation dialogs: the cancel button's label. */
  cancelText?: string;
  /** A link button beside OK (the "Log In" of a login prompt, returning to the page). */
  action?: { text: string; href: string };
  /**
   * A second button beside OK (the wishlist's Undo): runs `onClick` and closes the dialog
   * (answering false). A timed dialog with one waits while the reader goes for it.
   */
  secondary?: { text: string; onClick: () => void };
  /** A footer link under the text (the logout failure's 'Why do I have this issue?'). */
  footer?: { text: string; href: string };
}

/** A message carried across a redirect (lib/flash.server.ts) and shown once by the root. */
export type FlashMessage =
  | ({ type: 'toast' } & ToastOptions)
  | ({ type: 'dialog' } & Omit<DialogOptions, 'cancelText' | 'secondary'>);

export const defaultDuration = (kind: FeedbackKind = 'success') => (kind === 'success' ? FEEDBACK_MS.success : FEEDBACK_MS.other);
