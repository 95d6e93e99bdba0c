import { Page } from '~/components/page';

import type { Route } from './+types/login';

export const meta: Route.MetaFunction = () => [{ title: 'Log In · Afterglow' }];


export default function Screen() {
  return <Page title="Log In" />;
}
