import { z } from 'zod';
import { MESSAGES } from '~/lib/texts/messages';
import { EMAIL_MAX_LENGTH } from '~/lib/core/validation';


/** POST /subscribers (docs/product.md#the-api) and the newsletter form: a present, well-formed email. */
export const SubscribeSchema = z.object({
  email: z
    .string(MESSAGES.subscribeEmptyText)
    .trim()
    .min(1, MESSAGES.subscribeEmptyText)
    .max(EMAIL_MAX_LENGTH, MESSAGES.emailHint)
    .pipe(z.email(MESSAGES.emailHint)),
});
export type SubscribeInput = z.infer<typeof SubscribeSchema>;

/**
 * Anyone may subscribe, so the API and the form count together per client address: plenty for
 * a household or an office, too few to fill the table with junk.
 */

export { type Delivery, DeliverySchema, MAIL_DELIVERIES } from '~/features/mail/mail.schema';
