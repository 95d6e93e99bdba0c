import { DEFAULT_AVATAR, displayName } from '~/lib/core/display-name';
import type { SessionUser } from '~/lib/core/service-context';
import { type FilledSlots, ViewerSlots } from './viewer-slots.server';

/**
 * Every string a page shows that is its viewer's alone, declared once (docs/decisions/043, 078).
 * In a signed-in document each one is a placeholder (./viewer-slots.server.ts), so one render
 * serves every viewer who sees the same things, and entry.server writes each viewer's values in.
 * Loaders take these from the request's context (`context.shown`); nothing else can make a slot
 * (eslint.config.js keeps ./viewer-slots.server.ts out of routes, features and components). A new
 * viewer string is added here, whole as the page shows it: a placeholder stands for a whole value,
 * so what is derived from one (a display name, an encoded address) is derived here, before it is
 * slotted.
 */
export interface ShownViewer {
  /** The display name ('User' for none). */
  readonly name: string;
  readonly email: string;
  /** The photo, or the default avatar's address: with or without one, the page is the same. */
  readonly photo: string;
  /** `/wishList/` + the encoded email: a placeholder never starts a link's `to`, which React Router would resolve as relative. */
  readonly wishlistPath: string;
  /** The bell for this many unread: whether any is unread picks the render, the figure and label are filled in (docs/decisions/062). */
  bell(unread: number): ViewerBell;
  /** The address the viewer's newsletter subscription is kept under: their email, lower-cased, as the newsletter looks it up. */
  readonly subscriptionEmail: string;
}

export interface ViewerBell {
  unread: boolean;
  /** '3', or '99+'. */
  badge: string;
  label: string;
}

export interface ShownStrings {
  /** The request's id as a page shows it (the error page's reference, a flash message's key). */
  readonly requestId: string;
  /** Null for a visitor who is not signed in. */
  readonly viewer: ShownViewer | null;
}

/**
 * The request's shown strings, and the slots entry.server fills. `template`: a signed-in
 * document whose render may be kept (for a `.data` answer, or with renders not kept, every string
 * is its plain value).
 */
export function shownStringsOf(user: SessionUser | null, requestId: string, template: boolean): { shown: ShownStrings; slots: FilledSlots } {
  const slots = new ViewerSlots(user !== null && template);
  // Slotted in a fixed order, so the same strings get the same placeholders on every request.
  const viewer: ShownViewer | null = user && {
    name: slots.slot(displayName(user.name)),
    email: slots.slot(user.email),
    photo: slots.slot(user.image || DEFAULT_AVATAR),
    wishlistPath: `/wishList/${slots.slot(encodeURIComponent(user.email))}`,
    bell(unread) {
      const badge = unread > 99 ? '99+' : String(unread);
      return { unread: unread > 0, badge: slots.slot(badge), label: slots.slot(`Notifications, ${badge} unread`) };
    },
    // Slotted when a page shows it, so other pages' placeholders keep their numbers.
    get subscriptionEmail() {
      return slots.slot(user.email.toLowerCase());
    },
  };
  return { shown: { requestId: slots.slot(requestId), viewer }, slots };
}
