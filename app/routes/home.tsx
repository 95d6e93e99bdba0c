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
import type { Route } from './+types/home';

export function meta({ matches }: Route.MetaArgs) {
  const site = (matches[0]?.data as { siteName?: string } | undefined)?.siteName ?? 'Afterglow';
  return [{ title: `${site}: where every story shines` }, { name: 'description', content: 'Read and share blogs of every kind.' }];
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
