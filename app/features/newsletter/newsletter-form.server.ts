import { isAppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { ServiceContext } from '~/lib/core/service-context';
import type { NewsletterOutcome } from './components/newsletter-form';
import { SubscribeSchema } from './newsletter.schema';
import { subscribe } from './newsletter.service.server';

/**
 * The newsletter form posted without JavaScript (routes / and /newsletter): the same outcomes
 * and texts the enhanced form shows as popups (docs/product.md#messages), rendered beside the form instead.
 */
export async function subscribeFromForm(ctx: ServiceContext, form: FormData): Promise<NewsletterOutcome> {
  const raw = form.get('email');
  const email = typeof raw === 'string' ? raw.trim() : '';
  if (!email) return { status: 'invalid', title: MESSAGES.subscribeEmptyTitle, text: MESSAGES.subscribeEmptyText, email };
  const parsed = SubscribeSchema.safeParse({ email });
  if (!parsed.success) return { status: 'invalid', title: MESSAGES.subscribeEmptyTitle, text: MESSAGES.emailHint, email };
  try {
    const { message } = await subscribe(ctx, parsed.data);
    return { status: 'subscribed', title: MESSAGES.subscribedTitle, text: message, email };
  } catch (error) {
    // Over the subscribe limit: the product's failure, with the reason.
    if (isAppError(error) && error.code === 'rate_limited') return { status: 'limited', title: MESSAGES.subscribeErrorTitle, text: MESSAGES.tooManyRequests, email };
    if (isAppError(error) && error.code === 'conflict') {
      return { status: 'already', title: MESSAGES.alreadySubscribedTitle, text: error.message, email };
    }
    ctx.log.error({ err: error }, 'newsletter subscription failed');
    return { status: 'error', title: MESSAGES.subscribeErrorTitle, text: MESSAGES.subscribeErrorText, email };
  }
}

/** HTTP status for an outcome, so a no-JS post still answers like the API would. */
export const outcomeStatus = (outcome: NewsletterOutcome) =>
  ({ subscribed: 200, already: 409, invalid: 400, limited: 429, error: 500 })[outcome.status];

