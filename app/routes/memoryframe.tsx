import { Gallery } from '~/features/home/components/gallery';
import type { Route } from './+types/memoryframe';

export const meta: Route.MetaFunction = () => [{ title: 'studio frame · Afterglow' }];

/** The gallery section alone (spec §2 route table). */
export default function MemoryFrame() {
  return <Gallery />;
}
