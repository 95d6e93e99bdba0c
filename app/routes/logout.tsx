import { redirect } from 'react-router';
import { signOut } from '~/features/users/account.service.server';
import { withFlash } from '~/lib/flash.server';
import { safeRedirectPath } from '~/lib/session.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/logout';

/** 'Why do I have this issue?' leads to the profile, which shows whether the session is still there. */
const LOGOUT_HELP = '/profile';

/** Ends the session on the server, then goes home with 'Logged Out' (docs/product.md#logout). */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const { cookies } = await signOut(context.service);
    return redirect('/', { headers: withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.loggedOutTitle, text: MESSAGES.loggedOutText }, cookies) });
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
