import { data, Form, Link, redirect } from 'react-router';
import { listFollowing, setFollowDelivery, unfollowWriter } from '~/features/follows/follows.service.server';
import { DeliveryForm } from '~/features/newsletter/components/delivery-form';
import { DeliverySchema } from '~/features/newsletter/newsletter.schema';
import { newsletterPreferences, setNewsletterDelivery, unsubscribeMe, unsubscribeByLink } from '~/features/newsletter/newsletter.service.server';
import { NotificationMailForm } from '~/features/notifications/components/notification-mail-form';
import { NotificationSettingsSchema } from '~/features/notifications/notifications.schema';
import { notificationSettings, saveNotificationSettings } from '~/features/notifications/notifications.service.server';
import { AppError } from '~/lib/core/errors';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { backWithRefusal, errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/mail-preferences';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, MESSAGES.preferencesTitle) }, { name: 'robots', content: 'noindex' }];

/** By the mailed link (`?t=`, newsletter only, no login) or for the signed-in reader (all). */
function who(request: Request, context: Route.LoaderArgs['context']) {
  // A link with its token cut off (`?t=`) is a bad link, said so; not a reason to ask for a login.
  const token = new URL(request.url).searchParams.get('t');
  if (token !== null) return { secret: context.deps.config.SESSION_SECRET, token };
  userOrRedirectToLogin(context, request);
  return 'me' as const;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const by = who(request, context);
  try {
    const newsletter = await newsletterPreferences(context.service, by);
    const follows = by === 'me' ? await listFollowing(context.service) : null;
    const notices = by === 'me' ? await notificationSettings(context.service) : null;
    return { ok: true as const, newsletter, follows, notices };
  } catch (error) {
    if (pageRefusal(error).code !== 'not_found') errorPage(error);
    return data({ ok: false as const, newsletter: null, follows: null, notices: null }, { status: 404 });
  }
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'mail-link', limits: [], input: { delivery: DeliverySchema, settings: NotificationSettingsSchema } },
  async ({ context, request }, { ctx, input }) => {
    const by = who(request, context);
    const form = await request.formData();
    const intent = form.get('intent');
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    const saved = () => redirect(back, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.preferencesSaved }) });
    const delivery = input.delivery.safeParse(form.get('delivery'));
    try {
      if (intent === 'newsletter-delivery' && delivery.success) {
        await setNewsletterDelivery(ctx, by, delivery.data);
        return saved();
      }
      if (intent === 'newsletter-unsubscribe') {
        if (by === 'me') await unsubscribeMe(ctx);
        else await unsubscribeByLink(ctx, by.secret, by.token);
        return by === 'me' ? saved() : redirect('/', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.unsubscribedTitle }) });
      }
      if (intent === 'notification-mails' && by === 'me') {
        const settings = input.settings.safeParse(Object.fromEntries(form));
        if (!settings.success) return backWithRefusal(new AppError('bad_request', settings.error.issues[0]!.message), back);
        await saveNotificationSettings(ctx, settings.data);
        return saved();
      }
      const writerId = String(form.get('writerId') ?? '');
      if (intent === 'follow-delivery' && delivery.success) {
        await setFollowDelivery(ctx, writerId, delivery.data);
        return saved();
      }
      if (intent === 'unfollow') {
        await unfollowWriter(ctx, writerId);
        return saved();
      }
      return redirect(back);
    } catch (error) {
      return backWithRefusal(error, back);
    }
  },
);

/** One page for every mail a reader gets: the newsletter, and each followed writer. */
export default function MailPreferences({ loaderData }: Route.ComponentProps) {
  const { ok, newsletter, follows, notices } = loaderData;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.preferencesTitle}</h1>
      {!ok ? (
        <p role="alert" className="mt-4" data-testid="mail-link-invalid">{MESSAGES.mailLinkInvalid}</p>
      ) : (
        <>
          <div className="card mt-6 border border-base-300 bg-base-100 shadow-sm">
            <div className="card-body gap-3">
              <h2 className="card-title">{MESSAGES.newsletterLabel}</h2>
              {newsletter ? (
                <>
                  <p className="text-sm opacity-90">
                    <strong>{newsletter.email}</strong>
                    {newsletter.confirmed ? null : <span className="badge badge-waiting ml-2">waiting for confirmation</span>}
                  </p>
                  <DeliveryForm intent="newsletter-delivery" delivery={newsletter.delivery} label={MESSAGES.newsletterLabel} />
                  <Form method="post">
                    <input type="hidden" name="intent" value="newsletter-unsubscribe" />
                    <button type="submit" className="btn btn-ghost btn-sm text-error">{MESSAGES.unsubscribeButton}</button>
                  </Form>
                </>
              ) : (
                <p className="text-sm opacity-90">
                  {MESSAGES.notSubscribed} <Link to="/newsletter" className="link link-primary">{MESSAGES.subscribe}</Link>
                </p>
              )}
            </div>
          </div>
          {notices ? (
            <div className="card mt-6 border border-base-300 bg-base-100 shadow-sm" id="notification-mails">
              <div className="card-body gap-3">
                <h2 className="card-title">{MESSAGES.notificationMailsTitle}</h2>
                <p className="text-sm opacity-90">{MESSAGES.notificationMailsHint}</p>
                <NotificationMailForm settings={notices} />
              </div>
            </div>
          ) : null}
          {follows ? (
            <div className="card mt-6 border border-base-300 bg-base-100 shadow-sm">
              <div className="card-body gap-4">
                <h2 className="card-title">{MESSAGES.following}</h2>
                {follows.length === 0 ? <p className="text-sm opacity-90">{MESSAGES.followingEmpty}</p> : null}
                <ul className="flex flex-col gap-4">
                  {follows.map((w) => (
                    <li key={w.writerId} className="flex flex-col gap-2 border-t border-base-300 pt-3 first:border-0 first:pt-0">
                      <p className="font-semibold">{w.name}</p>
                      <div className="flex flex-wrap items-center gap-3">
                        <DeliveryForm intent="follow-delivery" delivery={w.delivery} label={w.name} hidden={{ writerId: w.writerId }} />
                        <Form method="post">
                          <input type="hidden" name="intent" value="unfollow" />
                          <input type="hidden" name="writerId" value={w.writerId} />
                          <button type="submit" className="btn btn-ghost btn-sm text-error" aria-label={`${MESSAGES.unfollow} ${w.name}`}>{MESSAGES.unfollow}</button>
                        </Form>
                      </div>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          ) : (
            <p className="mt-6 text-sm">
              <Link to="/login?redirectTo=/mail/preferences" className="link link-primary">{MESSAGES.logIn}</Link> to manage the writers you follow.
            </p>
          )}
        </>
      )}
    </section>
  );
}
