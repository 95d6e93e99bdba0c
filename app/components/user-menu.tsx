import { useRef } from 'react';
import { Form, Link } from 'react-router';
import { clearDrafts } from '~/lib/page/drafts';
import { MESSAGES } from '~/lib/texts/messages';
import { Avatar } from './avatar';
import { useDisclosure } from './use-disclosure';

export interface MenuUser {
  /** As shown: the name, or 'User' without one (the root loader decides). */
  name: string;
  email: string;
  /** The photo, or the default avatar's. */
  photo: string;
  /** `/wishList/{email}`, made by the loader (decision 043: the page uses each viewer string whole). */
  wishlistPath: string;
  /** A moderator or an admin: the menu links to /moderation (docs/decisions/028). */
  canModerate?: boolean;
}

/** The signed-in avatar dropdown: name (default 'User'), email, Profile, divider, Logout. */
export function UserMenu({ user }: { user: MenuUser }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useDisclosure(ref);
  return (
    <details ref={ref} className="dropdown dropdown-end" data-testid="user-menu">
      <summary className="btn btn-ghost btn-circle avatar list-none" aria-label={`Account menu for ${user.name}`}>
        {/* Low: the menu's photo waits behind the page's own images, and React announces no
            preload for it, so a kept render for another viewer names the same preloads (decision 043). */}
        <Avatar src={user.photo} alt="" size={40} fetchPriority="low" />
      </summary>
      <div className="dropdown-content z-50 mt-3 w-64 rounded-box bg-base-100 p-2 shadow-lg ring-1 ring-base-300">
        <div className="px-3 py-2">
          <p className="font-semibold truncate" data-testid="user-menu-name">{user.name}</p>
          <p className="text-sm opacity-80 truncate" data-testid="user-menu-email">{user.email}</p>
        </div>
        <ul className="menu w-full p-0" role="menu" aria-label="Account">
          <li role="none">
            <Link role="menuitem" to="/profile">{MESSAGES.profile}</Link>
          </li>
          {user.canModerate ? (
            <li role="none">
              <Link role="menuitem" to="/moderation" data-testid="moderation-link">{MESSAGES.moderationNav}</Link>
            </li>
          ) : null}
          <li role="separator" className="my-1 h-px bg-base-300" aria-hidden="true" />
          <li role="none">
            <button role="menuitem" type="submit" form="logout-form">
              {MESSAGES.logout}
            </button>
          </li>
        </ul>
        {/* Logging out leaves no draft behind for the next person at this browser. */}
        <Form id="logout-form" method="post" action="/logout" hidden onSubmit={clearDrafts} />
      </div>
    </details>
  );
}
