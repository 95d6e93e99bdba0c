import { Page } from '~/components/page';

import type { Route } from './+types/memoryframe';

export const meta: Route.MetaFunction = () => [{ title: 'Studio frame · Afterglow' }];


export default function Screen() {
  return <Page title="Studio frame" />;
}
