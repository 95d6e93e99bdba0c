import { Page } from '~/components/page';

import type { Route } from './+types/newsletter';

export const meta: Route.MetaFunction = () => [{ title: 'Never Miss a New Story! · Afterglow' }];


export default function Screen() {
  return <Page title="Never Miss a New Story!" />;
}
