/** The login page, coming back to `returnTo` (a path on this site, with its query and hash) once signed in. */
export function loginPath(returnTo: string): string {
  return `/login?${new URLSearchParams({ redirectTo: returnTo })}`;
}

/** The label of every "log in" offer, so a visitor is never left at a dead end (docs/decisions/027). */
export const LOG_IN = 'Log In';
