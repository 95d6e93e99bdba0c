import type { ListNotificationsQuery, MarkNotificationsReadInput } from '~/features/notifications/notifications.schema';
import { countUnreadNotifications, listNotifications, markNotificationsRead } from '~/features/notifications/notifications.service.server';
import type { Handlers } from './endpoints.server';
import { setPageHeaders } from './handlers.server';

/** The caller's own notifications (docs/decisions/062). */
export const NOTIFICATION_HANDLERS: Handlers = {
  'get /api/notifications': async ({ c, ctx, query }) => {
    const page = query as ListNotificationsQuery;
    const { items, total } = await listNotifications(ctx, page);
    setPageHeaders(c, page, total);
    return c.json(items);
  },
  'get /api/notifications/unread-count': async ({ c, ctx }) => c.json({ unread: await countUnreadNotifications(ctx) }),
  'post /api/notifications/read': async ({ c, ctx, body }) => c.json(await markNotificationsRead(ctx, body as MarkNotificationsReadInput)),
};
