import { Page } from '~/components/page';

import type { Route } from './+types/all-blogs';

export const meta: Route.MetaFunction = () => [{ title: 'All blogs · Afterglow' }];


export default function Screen() {
  return <Page title="All blogs" />;
}
