import { Gallery } from '~/features/home/components/gallery';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/memoryframe';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `studio frame · ${site.siteName}`, description: `A gallery of sunset moments from ${site.siteName}.`, path: '/memoryframe' });
};

/** The gallery section alone (docs/product.md#routes). */
export default function MemoryFrame() {
  return <Gallery standalone />;
}
