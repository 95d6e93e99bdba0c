import { Achievements } from '~/features/home/components/achievements';
import { loadSiteFigures } from '~/features/home/home.service.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/counter';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `Our Achievements · ${site.siteName}`, description: `${site.siteName} in numbers: writers, blogs and readers.`, path: '/counter' });
};

export async function loader({ context }: Route.LoaderArgs) {
  return { figures: await loadSiteFigures(context.service, context.deps.config.ACHIEVEMENTS) };
}

/** The achievements section alone (docs/product.md#routes). */
export default function Counter({ loaderData }: Route.ComponentProps) {
  return <Achievements figures={loaderData.figures} standalone />;
}
