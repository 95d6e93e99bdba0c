import { data } from 'react-router';

import type { Route } from './+types/blog-detail';

// Blogs arrive with their own issue; until then every id is unknown.
export function loader({ context, request }: Route.LoaderArgs) {
  void context; void request;
  throw data(null, { status: 404 });
}

export default function Screen() {
  return null;
}
