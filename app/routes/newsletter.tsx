import { data } from 'react-router';
import { NewsletterSection } from '~/features/newsletter/components/newsletter-section';
import { outcomeStatus, subscribeFromForm } from '~/features/newsletter/newsletter-form.server';
import { SUBSCRIBE_RATE_LIMIT } from '~/features/newsletter/newsletter.schema';
import { consumeRateLimit } from '#server/middleware/rate-limit.server';
import { MESSAGES } from '~/lib/messages';
import { pageMeta, siteOf } from '~/lib/seo';
import type { Route } from './+types/newsletter';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.newsletterHeading} · ${site.siteName}`, description: `Subscribe to the ${site.siteName} newsletter.`, path: '/newsletter' });
};

export async function action({ request, context }: Route.ActionArgs) {
  const limit = await consumeRateLimit(context.deps.rateLimits, SUBSCRIBE_RATE_LIMIT, context.clientIp, context.service.log);
  const outcome = await subscribeFromForm(context.service, await request.formData(), { rateLimited: !limit.allowed });
  return data(outcome, { status: outcomeStatus(outcome) });
}

/** The newsletter section alone (spec §2 route table). */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  return <NewsletterSection action="/newsletter" outcome={actionData} standalone />;
}
