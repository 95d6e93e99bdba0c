import { Form, Link, redirect } from 'react-router';
import { Avatar } from '~/components/avatar';
import { LocalTime } from '~/components/local-format';
import { ListNotificationsQuerySchema } from '~/features/notifications/notifications.schema';
import { listNotifications, markNotificationsRead } from '~/features/notifications/notifications.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { backWithRefusal } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { defineAction } from '~/lib/page/page-action.server';
import type { Route } from './+types/notifications';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.notificationsTitle} · ${site.siteName}`, description: MESSAGES.notificationsTitle, path: '/notifications', index: false });
};

/**
 * The member's notifications, grouped, newest first. What this page shows is seen: its unread
 * ones are marked read as it is read (they still show as new on this page).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  const url = new URL(request.url);
  const parsed = ListNotificationsQuerySchema.safeParse({ page: url.searchParams.get('page') ?? undefined });
  const query = parsed.success ? parsed.data : ListNotificationsQuerySchema.parse({});
  const { items, total } = await listNotifications(context.service, query);
  const unseen = items.filter((n) => !n.read).map((n) => n.id);
  if (unseen.length > 0) await markNotificationsRead(context.service, { ids: unseen });
  return { items, page: query.page, more: query.page * query.limit < total };
}

/** "Mark all read". */
export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [], input: 'id' }, async (_args, { ctx }) => {
  try {
    await markNotificationsRead(ctx, {});
    return redirect('/notifications', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.allMarkedRead }) });
  } catch (error) {
    return backWithRefusal(error, '/notifications');
  }
});

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { items, page, more } = loaderData;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.notificationsTitle}</h1>
        {items.length > 0 ? (
          <Form method="post">
            <button type="submit" className="btn btn-outline btn-sm" data-testid="mark-all-read">{MESSAGES.markAllRead}</button>
          </Form>
        ) : null}
      </div>
      {items.length === 0 ? (
        <div className="mt-8 rounded-box border border-dashed border-base-300 p-8 text-center" data-testid="notifications-empty">
          <p className="opacity-90">{MESSAGES.notificationsEmpty}</p>
          <Link to="/allblogs" className="btn btn-primary btn-sm mt-4">{MESSAGES.startReading}</Link>
        </div>
      ) : (
        <ul className="mt-6 flex flex-col gap-2" data-testid="notifications-list">
          {items.map((n) => (
            <li key={n.id} data-testid="notification" data-kind={n.kind} data-read={n.read ? 'true' : 'false'}>
              <Link
                to={n.href}
                className={`flex items-start gap-3 rounded-box border p-3 transition-colors hover:bg-base-200 sm:p-4 ${n.read ? 'border-base-300 bg-base-100' : 'border-primary/40 bg-primary/5'}`}
              >
                {n.kind === 'moderation' ? (
                  <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-warning/20 text-lg" aria-hidden="true">⚑</span>
                ) : (
                  <span className="shrink-0"><Avatar src={n.actorPhoto} alt="" size={40} /></span>
                )}
                <span className="min-w-0 flex-1">
                  <span className="block break-words" data-testid="notification-text">{n.text}</span>
                  <span className="mt-1 block text-sm opacity-80">
                    <LocalTime iso={n.updatedAt} withTime />
                    {n.read ? null : <span className="badge badge-primary badge-sm ml-2">{MESSAGES.notificationNew}</span>}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || more ? (
        <nav aria-label="Pages" className="mt-6 flex justify-between">
          {page > 1 ? <Link to={`/notifications?page=${page - 1}`} className="btn btn-ghost btn-sm">Newer</Link> : <span />}
          {more ? <Link to={`/notifications?page=${page + 1}`} className="btn btn-ghost btn-sm">Older</Link> : null}
        </nav>
      ) : null}
      <p className="mt-8 text-sm">
        <Link to="/mail/preferences#notification-mails" className="link link-primary">{MESSAGES.notificationMailsTitle}</Link>
      </p>
    </section>
  );
}
