/** The login page, coming back to `returnTo` (a path on this site, with its query and hash) once signed in. */
export function loginPath(returnTo: string): string {
  return `/login?${new URLSearchParams({ redirectTo: returnTo })}`;
}

/** The label of every "log in" offer (issue 17: no dead ends for visitors). */
export const LOG_IN = 'Log In';
