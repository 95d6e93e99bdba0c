import { Page } from '~/components/page';
import { requireUser } from '~/lib/session.server';
import type { Route } from './+types/add-blog';

export const meta: Route.MetaFunction = () => [{ title: 'Add a blog · Afterglow' }];

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Screen() {
  return <Page title="Add a blog" />;
}
