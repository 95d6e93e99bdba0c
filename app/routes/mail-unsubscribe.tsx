import { data, Form, Link } from 'react-router';
import { describeMailLink, unsubscribeByLink } from '~/features/newsletter/newsletter.service.server';
import { NOTIFICATION_KIND_LABELS } from '~/features/notifications/notifications.schema';
import { AuthCard } from '~/features/users/components/auth-card';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/mail-unsubscribe';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, MESSAGES.unsubscribeTitle) }, { name: 'robots', content: 'noindex' }];

/** An unknown or forged link: the page says so (404); anything else is the error page. */
function invalid(error: unknown) {
  if (pageRefusal(error).code !== 'not_found') errorPage(error);
  return data({ state: 'invalid' as const }, { status: 404 });
}

/** GET shows what the link would end and a button; it changes nothing (RFC 8058 §3). */
export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    return { state: 'ask' as const, token: params.token, target: await describeMailLink(context.service, context.deps.config.SESSION_SECRET, params.token) };
  } catch (error) {
    return invalid(error);
  }
}

/**
 * The one-click unsubscribe: a mail client's POST (body `List-Unsubscribe=One-Click`, no
 * cookie, no login) and this page's button alike. The signed link is the whole proof.
 */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'mail-link', limits: [], input: 'id' },
  async ({ context, params }, { ctx }) => {
    try {
      return { state: 'done' as const, result: await unsubscribeByLink(ctx, context.deps.config.SESSION_SECRET, params.token) };
    } catch (error) {
      return invalid(error);
    }
  },
);

export default function MailUnsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const shown = actionData ?? loaderData;
  if (shown.state === 'invalid') {
    return (
      <AuthCard title={MESSAGES.unsubscribeTitle}>
        <p role="alert" data-testid="mail-link-invalid">{MESSAGES.mailLinkInvalid}</p>
      </AuthCard>
    );
  }
  if (shown.state === 'done') {
    const { result } = shown;
    return (
      <AuthCard title={MESSAGES.unsubscribedTitle} footer={<Link to="/" className="link link-primary">Back to the home page</Link>}>
        <p role="status" className="text-center" data-testid="unsubscribed">
          {result.kind === 'newsletter' ? (
            <>{MESSAGES.unsubscribedNewsletter} {result.email ? <strong>{result.email}</strong> : 'this address'}.</>
          ) : result.kind === 'follow' ? (
            <>{MESSAGES.unsubscribedFollow} <strong>{result.writerName ?? 'this writer'}</strong>.</>
          ) : result.kind === 'notice' && result.noticeKind ? (
            <>{MESSAGES.unsubscribedNotice} <strong>{NOTIFICATION_KIND_LABELS[result.noticeKind]}</strong>.</>
          ) : result.kind === 'notices' ? (
            MESSAGES.unsubscribedNotices
          ) : (
            MESSAGES.unsubscribedFollows
          )}
        </p>
      </AuthCard>
    );
  }
  const { target, token } = shown;
  if (target.kind === 'gone') {
    return (
      <AuthCard title={MESSAGES.unsubscribedTitle}>
        <p role="status" className="text-center" data-testid="unsubscribed">{MESSAGES.notSubscribed}</p>
      </AuthCard>
    );
  }
  const what =
    target.kind === 'newsletter' ? (
      <>Stop the newsletter for <strong>{target.email}</strong>?</>
    ) : target.kind === 'follow' ? (
      <>Stop following <strong>{target.writerName}</strong> and their mails?</>
    ) : target.kind === 'notice' ? (
      <>Stop mails for <strong>{NOTIFICATION_KIND_LABELS[target.noticeKind]}</strong>? They stay on your Notifications page.</>
    ) : target.kind === 'notices' ? (
      <>Stop every notification mail? They stay on your Notifications page.</>
    ) : (
      <>Stop following every writer and their mails?</>
    );
  return (
    <AuthCard
      title={MESSAGES.unsubscribeTitle}
      footer={<Link to={target.kind === 'newsletter' ? `/mail/preferences?t=${token}` : '/mail/preferences'} className="link link-primary">{MESSAGES.preferencesTitle}</Link>}
    >
      <p className="text-center">{what}</p>
      <Form method="post">
        <button type="submit" className="btn btn-primary w-full" data-testid="unsubscribe-button">{MESSAGES.unsubscribeButton}</button>
      </Form>
    </AuthCard>
  );
}
