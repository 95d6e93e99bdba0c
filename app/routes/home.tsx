import { data, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '~/root';
import { deferredSection } from '~/components/deferred-section';
import { Hero } from '~/features/home/components/hero';
import { RecentBlogs } from '~/features/home/components/recent-blogs';
import { loadRecentBlogsSection, loadSiteFigures } from '~/features/home/home.service.server';
import { outcomeStatus, subscribeFromForm } from '~/features/newsletter/newsletter-form.server';
import { findMySubscription } from '~/features/newsletter/newsletter.service.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/home';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;
import { SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

// Below the first screen: server-rendered whole, their client code loaded near the viewport (decision 036).
const Gallery = deferredSection(() => import('~/features/home/components/gallery').then((m) => ({ default: m.Gallery })));
const NewsletterSection = deferredSection(() => import('~/features/newsletter/components/newsletter-section').then((m) => ({ default: m.NewsletterSection })));
const Achievements = deferredSection(() => import('~/features/home/components/achievements').then((m) => ({ default: m.Achievements })));

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${site.siteName}: where every story shines`, description: 'Read and share blogs of every kind.', path: '/' });
}

export async function loader({ context }: Route.LoaderArgs) {
  const [recent, figures, subscription] = await Promise.all([
    loadRecentBlogsSection(context.service),
    loadSiteFigures(context.service, context.deps.config.ACHIEVEMENTS),
    findMySubscription(context.service),
    Gallery.ready,
    NewsletterSection.ready,
    Achievements.ready,
  ]);
  const viewer = context.shown.viewer;
  return { signedIn: !!context.user, ...recent, figures, subscription: subscription && viewer && { ...subscription, email: viewer.subscriptionEmail } };
}

/** The newsletter form posted without JavaScript lands here and is answered on the same page. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.subscribe], input: SubscribeSchema },
  async ({ request }, { ctx }) => {
    await NewsletterSection.ready;
    const outcome = await subscribeFromForm(ctx, await request.formData());
    return data(outcome, { status: outcomeStatus(outcome) });
  },
);

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const siteName = useRouteLoaderData<typeof rootLoader>('root')?.siteName ?? 'Afterglow';
  return (
    <>
      <Hero siteName={siteName} />
      <RecentBlogs blogs={loaderData.blogs} signedIn={loaderData.signedIn} wishlistIds={loaderData.wishlistIds} />
      <Gallery />
      <NewsletterSection action="/?index" outcome={actionData} subscription={loaderData.subscription} />
      <Achievements figures={loaderData.figures} />
    </>
  );
}
