import { Achievements } from '~/features/home/components/achievements';
import type { Route } from './+types/counter';

export const meta: Route.MetaFunction = () => [{ title: 'Our Achievements · Afterglow' }];

/** The achievements section alone (spec §2 route table). */
export default function Counter() {
  return <Achievements />;
}
