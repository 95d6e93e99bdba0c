import { z } from 'zod';

/** Per post (the default) or one digest a day: the reader's choice, per subscription and per follow. */
export const MAIL_DELIVERIES = ['post', 'digest'] as const;
export const DeliverySchema = z.enum(MAIL_DELIVERIES, 'Choose per post or daily digest.');
export type Delivery = z.infer<typeof DeliverySchema>;
