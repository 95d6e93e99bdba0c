import { z } from 'zod';
import { DeliverySchema } from '~/features/mail/mail.schema';

/** The follow button's form and the preferences page: which writer, and what to do. */
export const FollowFormSchema = z.object({
  writerId: z.string().trim().min(1).max(64),
  intent: z.enum(['follow', 'unfollow', 'delivery']),
  delivery: DeliverySchema.optional(),
});
export type FollowFormInput = z.infer<typeof FollowFormSchema>;

/** The Following list shows this many writers; nobody follows more in practice. */
export const FOLLOWING_SHOWN = 200;
