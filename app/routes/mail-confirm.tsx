import { data, Link } from 'react-router';
import { confirmSubscription } from '~/features/newsletter/newsletter.service.server';
import { AuthCard } from '~/features/users/components/auth-card';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/mail-confirm';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, MESSAGES.subscriptionConfirmedTitle) }, { name: 'robots', content: 'noindex' }];

/**
 * The double opt-in link: opening it confirms (docs/decisions/023 says why a GET may). The
 * token is the whole proof; no login.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const { email, manageToken } = await confirmSubscription(context.service, context.deps.config.SESSION_SECRET, params.token);
    return { ok: true as const, email, manageToken };
  } catch (error) {
    if (pageRefusal(error).code !== 'not_found') errorPage(error);
    return data({ ok: false as const, email: '', manageToken: '' }, { status: 404 });
  }
}

export default function MailConfirm({ loaderData }: Route.ComponentProps) {
  if (!loaderData.ok) {
    return (
      <AuthCard title={MESSAGES.subscribeErrorTitle}>
        <p role="alert" data-testid="mail-link-invalid">{MESSAGES.mailLinkInvalid}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={MESSAGES.subscriptionConfirmedTitle} footer={<Link to={`/mail/preferences?t=${loaderData.manageToken}`} className="link link-primary">{MESSAGES.preferencesTitle}</Link>}>
      <p role="status" className="text-center" data-testid="subscription-confirmed">
        {MESSAGES.subscriptionConfirmedText} <strong>{loaderData.email}</strong>.
      </p>
    </AuthCard>
  );
}
