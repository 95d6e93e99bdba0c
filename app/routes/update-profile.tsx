import { Page } from '~/components/page';
import { requireUser } from '~/lib/session.server';
import type { Route } from './+types/update-profile';

export const meta: Route.MetaFunction = () => [{ title: 'My Profile · Afterglow' }];

export function loader({ context, request }: Route.LoaderArgs) {
  requireUser(context, request);
  return null;
}

export default function Screen() {
  return <Page title="My Profile" />;
}
