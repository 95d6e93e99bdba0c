import { redirect } from 'react-router';
import { Page } from '~/components/page';
import { MESSAGES } from '~/lib/messages';
import { requireUser } from '~/lib/session.server';
import type { Route } from './+types/wishlist';

export const meta: Route.MetaFunction = () => [{ title: 'My Wishlist · Afterglow' }];

export function loader({ context, request, params }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  // Another user's email in the path leads to one's own list (BRIEF §2).
  if (params.email && params.email.toLowerCase() !== user.email.toLowerCase()) {
    throw redirect(`/wishList/${encodeURIComponent(user.email)}`);
  }
  return { count: 0 };
}

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  return (
    <Page title={MESSAGES.wishlistHeading(loaderData.count)}>
      <p className="mt-6 opacity-90">{MESSAGES.emptyWishlist}</p>
    </Page>
  );
}
