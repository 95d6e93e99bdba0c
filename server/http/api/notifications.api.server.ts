import { z } from 'zod';
import { ListNotificationsQuerySchema, MarkNotificationsReadSchema, NotificationSchema } from '~/features/notifications/notifications.schema';
import { countUnreadNotifications, listNotifications, markNotificationsRead } from '~/features/notifications/notifications.service.server';
import { defineOperation, type Operation } from './endpoints.server';
import { setPageHeaders } from './handlers.server';
import { bad, denied, ModifiedResponse } from './responses.server';

const UnreadCountResponse = z.strictObject({ unread: z.number().int() });

/** The caller's own notifications, always (docs/decisions/062). */
export const NOTIFICATION_OPERATIONS: Operation[] = [
  defineOperation(
    { method: 'get', path: '/api/notifications', tag: 'Notifications', auth: 'required', standing: 'any', summary: "The caller's notifications, grouped (\"Jonas and 4 others liked …\"), newest activity first", query: ListNotificationsQuerySchema, responses: { 200: { description: 'Notifications', schema: NotificationSchema, list: true, paged: true }, 401: denied[401], ...bad } },
    async ({ c, ctx, query }) => {
      const { items, total } = await listNotifications(ctx, query);
      setPageHeaders(c, query, total);
      return c.json(items);
    },
  ),
  defineOperation(
    { method: 'get', path: '/api/notifications/unread-count', tag: 'Notifications', auth: 'required', standing: 'any', summary: 'How many of the caller’s notifications are unread (may be a few seconds old)', responses: { 200: { description: 'The count', schema: UnreadCountResponse }, 401: denied[401] } },
    async ({ c, ctx }) => c.json({ unread: await countUnreadNotifications(ctx) }),
  ),
  defineOperation(
    { method: 'post', path: '/api/notifications/read', tag: 'Notifications', auth: 'required', standing: 'any', summary: 'Mark the caller’s notifications read: those in `ids`, or all without it', body: MarkNotificationsReadSchema, responses: { 200: { description: 'Marked', schema: ModifiedResponse }, 401: denied[401], ...bad } },
    async ({ c, ctx, body }) => c.json(await markNotificationsRead(ctx, body)),
  ),
];
