import { Link, useLocation } from 'react-router';

/**
 * The bell's state as the root loader hands it: whether anything is unread (part of the page's
 * data, so it picks the kept render) and the badge and label, each a whole viewer string (a slot
 * in a kept render, docs/decisions/043, 062).
 */
export interface BellState {
  unread: boolean;
  /** '3', or '99+'. */
  badge: string;
  /** The link's accessible name: 'Notifications' or 'Notifications, 3 unread'. */
  label: string;
}

/** The navigation's link to /notifications, with the unread count; the page itself shows none (it marks them read). */
export function NotificationBell({ bell }: { bell: BellState }) {
  const onPage = useLocation().pathname.toLowerCase() === '/notifications';
  const showBadge = bell.unread && !onPage;
  return (
    <Link to="/notifications" className="btn btn-ghost btn-circle" aria-label={showBadge ? bell.label : 'Notifications'} data-testid="notification-bell">
      <span className="indicator">
        <svg className="h-6 w-6" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path strokeLinecap="round" strokeLinejoin="round" d="M15 17h5l-1.4-1.4A2 2 0 0 1 18 14.2V11a6 6 0 0 0-4-5.7V5a2 2 0 1 0-4 0v.3A6 6 0 0 0 6 11v3.2c0 .5-.2 1-.6 1.4L4 17h5m6 0v1a3 3 0 1 1-6 0v-1m6 0H9" />
        </svg>
        {showBadge ? (
          <span className="badge indicator-item badge-primary badge-sm px-1.5 font-semibold" data-testid="notification-count" aria-hidden="true">
            {bell.badge}
          </span>
        ) : null}
      </span>
    </Link>
  );
}
