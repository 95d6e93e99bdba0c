import { Page } from '~/components/page';

import type { Route } from './+types/profile';

export const meta: Route.MetaFunction = () => [{ title: 'Profile · Afterglow' }];


export default function Screen() {
  return <Page title="Profile" />;
}
