import { data } from 'react-router';
import { NewsletterSection } from '~/features/newsletter/components/newsletter-section';
import { outcomeStatus, subscribeFromForm } from '~/features/newsletter/newsletter-form.server';
import { findMySubscription } from '~/features/newsletter/newsletter.service.server';
import { MESSAGES } from '~/lib/messages';
import { pageMeta, siteOf } from '~/lib/seo';
import type { Route } from './+types/newsletter';
import type { CachedRead } from '~/lib/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.newsletterHeading} · ${site.siteName}`, description: `Subscribe to the ${site.siteName} newsletter.`, path: '/newsletter' });
};

export async function action({ request, context }: Route.ActionArgs) {
  const outcome = await subscribeFromForm(context.service, await request.formData());
  return data(outcome, { status: outcomeStatus(outcome) });
}

export async function loader({ context }: Route.LoaderArgs) {
  return { subscription: await findMySubscription(context.service) };
}

/** The newsletter section alone (docs/product.md#routes). */
export default function Newsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <NewsletterSection action="/newsletter" outcome={actionData} subscription={loaderData.subscription} standalone />;
}
