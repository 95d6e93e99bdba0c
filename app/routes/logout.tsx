import { redirect } from 'react-router';
import type { Route } from './+types/logout';

/** Ends the session on the server, then goes home (spec §4 "Logout"). */
export async function action({ request, context }: Route.ActionArgs) {
  const response = await context.deps.auth.api.signOut({ headers: request.headers, asResponse: true });
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append('Set-Cookie', cookie);
  return redirect('/?loggedOut=1', { headers });
}

export function loader() {
  return redirect('/');
}
