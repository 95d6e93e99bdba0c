import { useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import { onDemand } from './on-demand';
import { type BellState, NotificationBell } from './notification-bell';
import { ThemeToggle } from './theme-toggle';
import type { MenuUser } from './user-menu';
import { useDisclosure } from './use-disclosure';

// Only signed-in readers see it: its code loads when it is shown (docs/decisions/038).
const UserMenu = onDemand(() => import('./user-menu').then((m) => ({ default: m.UserMenu })), {
  serverMarkup: '[data-testid="user-menu"]',
});

/** The five navigation links (docs/product.md#navigation-bar), in order. */
export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/allblogs', label: 'All Blogs' },
  { to: '/featuredBlogs', label: 'Featured Blogs' },
  { to: '/addBlog', label: 'Add blogs' },
  { to: '/wishList', label: 'Wishlist' },
] as const;

function NavItems() {
  return NAV_LINKS.map((link) => (
    <li key={link.to}>
      <NavLink
        to={link.to}
        end={link.to === '/'}
        className={({ isActive }) => (isActive ? 'menu-active font-semibold' : undefined)}
      >
        {link.label}
      </NavLink>
    </li>
  ));
}

function MobileMenu() {
  const ref = useRef<HTMLDetailsElement>(null);
  useDisclosure(ref);
  return (
    <details ref={ref} className="dropdown lg:hidden" data-testid="mobile-menu">
      <summary className="btn btn-ghost btn-square list-none" aria-label="Menu">
        <svg className="h-6 w-6" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path strokeLinecap="round" d="M4 6h16M4 12h16M4 18h16" />
        </svg>
      </summary>
      <nav aria-label="Main" className="dropdown-content z-50 mt-3 w-56 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300">
        <ul className="menu w-full p-0">
          <NavItems />
        </ul>
      </nav>
    </details>
  );
}

export function SiteNav({ user, siteName, bell }: { user: MenuUser | null; siteName: string; bell?: BellState | null }) {
  return (
    <header className="navbar sticky top-0 z-40 border-b border-base-300 bg-base-100/95 px-2 backdrop-blur sm:px-4">
      <div className="navbar-start gap-1">
        <MobileMenu />
        <Link to="/" className="btn btn-ghost px-2 text-xl font-bold tracking-tight">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span className="bg-gradient-to-r from-primary to-secondary bg-clip-text text-transparent">{siteName}</span>
        </Link>
      </div>
      <nav aria-label="Main" className="navbar-center hidden lg:flex">
        <ul className="menu menu-horizontal gap-1 px-1">
          <NavItems />
        </ul>
      </nav>
      <div className="navbar-end gap-1">
        <ThemeToggle />
        {user && bell ? <NotificationBell bell={bell} /> : null}
        {user ? (
          <UserMenu user={user} />
        ) : (
          <Link to="/login" className="btn btn-primary btn-sm sm:btn-md">
            {MESSAGES.logIn}
          </Link>
        )}
      </div>
    </header>
  );
}
