import { redirect } from 'react-router';
import { withFlash } from '~/lib/flash.server';
import { safeRedirectPath } from '~/lib/session.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/logout';

/** 'Why do I have this issue?' leads to the profile, which shows whether the session is still there. */
const LOGOUT_HELP = '/profile';

/** Ends the session on the server, then goes home with 'Logged Out' (spec §4 "Logout"). */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const { auth } = context.deps;
    const response = await auth.api.signOut({ headers: request.headers, asResponse: true });
    if (response.status >= 500) throw new Error(`sign-out answered ${response.status}`);
    // better-auth reports success even when its database write failed; the session must be gone.
    if (await auth.api.getSession({ headers: request.headers })) throw new Error('the session outlived sign-out');
    const headers = withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.loggedOutTitle, text: MESSAGES.loggedOutText });
    for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
    return redirect('/', { headers });
  } catch (error) {
    context.service.log.error({ err: error }, 'logout failed');
    const headers = withFlash({
      type: 'dialog',
      kind: 'error',
      title: MESSAGES.logoutErrorTitle,
      text: MESSAGES.logoutErrorFallback,
      footer: { text: MESSAGES.logoutErrorFooter, href: LOGOUT_HELP },
    });
    return redirect(safeRedirectPath(new URL(request.headers.get('referer') ?? '/', request.url).pathname), { headers });
  }
}

export function loader() {
  return redirect('/');
}
