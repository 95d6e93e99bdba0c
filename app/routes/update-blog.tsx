import { data } from 'react-router';
import { requireUser } from '~/lib/session.server';
import type { Route } from './+types/update-blog';

// Blogs arrive with their own issue; until then every id is unknown.
export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  throw data(null, { status: 404 });
}

export default function Screen() {
  return null;
}
