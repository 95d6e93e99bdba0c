import { data } from 'react-router';
import { NewsletterSection } from '~/features/newsletter/components/newsletter-section';
import { outcomeStatus, subscribeFromForm } from '~/features/newsletter/newsletter-form.server';
import { findMySubscription } from '~/features/newsletter/newsletter.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/newsletter';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;
import { SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.newsletterHeading} · ${site.siteName}`, description: `Subscribe to the ${site.siteName} newsletter.`, path: '/newsletter' });
};

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'none', limits: [RATE_LIMITS.subscribe], input: SubscribeSchema },
  async ({ request }, { ctx }) => {
    const outcome = await subscribeFromForm(ctx, await request.formData());
    return data(outcome, { status: outcomeStatus(outcome) });
  },
);

export async function loader({ context }: Route.LoaderArgs) {
  const subscription = await findMySubscription(context.service);
  const viewer = context.shown.viewer;
  // The reader's address as a slot: every subscribed reader shares the page's render (decision 078).
  return { subscription: subscription && viewer && { ...subscription, email: viewer.subscriptionEmail } };
}

/** The newsletter section alone (docs/product.md#routes). */
export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterSection action="/newsletter" outcome={actionData} subscription={loaderData.subscription} standalone />;
}
