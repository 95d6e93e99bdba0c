import { Page } from '~/components/page';

import type { Route } from './+types/recent';

export const meta: Route.MetaFunction = () => [{ title: 'Recent Blogs · Afterglow' }];


export default function Screen() {
  return <Page title="Recent Blogs" />;
}
