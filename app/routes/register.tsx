import { Page } from '~/components/page';

import type { Route } from './+types/register';

export const meta: Route.MetaFunction = () => [{ title: 'Sign Up · Afterglow' }];


export default function Screen() {
  return <Page title="Sign Up" />;
}
