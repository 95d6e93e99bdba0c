import { redirect } from 'react-router';
import { signOut } from '~/features/users/account.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/logout';
import { defineAction } from '~/lib/page/page-action.server';

/** 'Why do I have this issue?' leads to the profile, which shows whether the session is still there. */
const LOGOUT_HELP = '/profile';

/** Ends the session on the server, then goes home with 'Logged Out' (docs/product.md#logout). */
/**
 * Signing out. A post whose session is already gone signs out all the same: better-auth's answer
 * clears a stale cookie, and the visitor sees they are logged out.
 */
async function leave({ request, context }: Route.ActionArgs) {
  const ctx = context.service;
  try {
    const { cookies } = await signOut(ctx);
    return redirect('/', { headers: withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.loggedOutTitle, text: MESSAGES.loggedOutText }, cookies) });
  } catch (error) {
    ctx.log.error({ err: error }, 'logout failed');
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

export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [], input: 'id', signedOut: leave }, leave);

export function loader() {
  return redirect('/');
}
