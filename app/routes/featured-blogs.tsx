import { Page } from '~/components/page';

import type { Route } from './+types/featured-blogs';

export const meta: Route.MetaFunction = () => [{ title: 'Our Top 10 Featured Picks for You! · Afterglow' }];


export default function Screen() {
  return <Page title="Our Top 10 Featured Picks for You!" />;
}
