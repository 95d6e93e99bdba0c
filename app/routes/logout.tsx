import { redirect } from 'react-router';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/logout';

/** Ends the session on the server, then goes home with 'Logged Out' (spec §4 "Logout"). */
export async function action({ request, context }: Route.ActionArgs) {
  const response = await context.deps.auth.api.signOut({ headers: request.headers, asResponse: true });
  const headers = withFlash({ type: 'dialog', kind: 'success', title: MESSAGES.loggedOutTitle, text: MESSAGES.loggedOutText });
  for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  return redirect('/', { headers });
}

export function loader() {
  return redirect('/');
}
