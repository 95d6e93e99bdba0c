import { AppError } from '~/lib/errors';
import { newId } from '~/lib/ids.server';
import { MESSAGES } from '~/lib/messages';
import type { ServiceContext } from '~/lib/service-context';
import { insertSubscriber } from './newsletter.repo.server';
import type { SubscribeInput } from './newsletter.schema';

/**
 * Subscribes an email to the newsletter; anyone may (spec §6). Emails are stored lower-cased so
 * 'Ann@x.org' and 'ann@x.org' are one subscriber; a second time is a 409 with its own message.
 */
export async function subscribe(ctx: ServiceContext, input: SubscribeInput): Promise<{ message: string }> {
  const inserted = await insertSubscriber(ctx.db, {
    id: newId(),
    email: input.email.toLowerCase(),
    created_at: ctx.now().toISOString(),
  });
  if (!inserted) throw new AppError('conflict', MESSAGES.alreadySubscribedMessage);
  return { message: MESSAGES.subscribeSuccessMessage };
}
