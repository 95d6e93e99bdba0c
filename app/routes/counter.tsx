import { Page } from '~/components/page';

import type { Route } from './+types/counter';

export const meta: Route.MetaFunction = () => [{ title: 'Achievements · Afterglow' }];


export default function Screen() {
  return <Page title="Achievements" />;
}
