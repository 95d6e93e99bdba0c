import { data, useRouteLoaderData } from 'react-router';
import type { loader as rootLoader } from '~/root';
import { Achievements } from '~/features/home/components/achievements';
import { Gallery } from '~/features/home/components/gallery';
import { Hero } from '~/features/home/components/hero';
import { RecentBlogs } from '~/features/home/components/recent-blogs';
import { loadRecentBlogsSection } from '~/features/home/home.service.server';
import { NewsletterSection } from '~/features/newsletter/components/newsletter-section';
import { outcomeStatus, subscribeFromForm } from '~/features/newsletter/newsletter-form.server';
import { SUBSCRIBE_RATE_LIMIT } from '~/features/newsletter/newsletter.schema';
import { consumeRateLimit } from '#server/middleware/rate-limit.server';
import { pageMeta, siteOf } from '~/lib/seo';
import type { Route } from './+types/home';

export function meta({ matches }: Route.MetaArgs) {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${site.siteName}: where every story shines`, description: 'Read and share blogs of every kind.', path: '/' });
}

export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: !!context.user, ...(await loadRecentBlogsSection(context.service)) };
}

/** The newsletter form posted without JavaScript lands here and is answered on the same page. */
export async function action({ request, context }: Route.ActionArgs) {
  const limit = await consumeRateLimit(context.deps.rateLimits, SUBSCRIBE_RATE_LIMIT, context.clientIp, context.service.log);
  const outcome = await subscribeFromForm(context.service, await request.formData(), { rateLimited: !limit.allowed });
  return data(outcome, { status: outcomeStatus(outcome) });
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const siteName = useRouteLoaderData<typeof rootLoader>('root')?.siteName ?? 'Afterglow';
  return (
    <>
      <Hero siteName={siteName} />
      <RecentBlogs blogs={loaderData.blogs} signedIn={loaderData.signedIn} wishlistIds={loaderData.wishlistIds} />
      <Gallery />
      <NewsletterSection action="/?index" outcome={actionData} />
      <Achievements />
    </>
  );
}
