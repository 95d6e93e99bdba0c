import { Form, Link } from 'react-router';
import { accountOfInteraction, InteractionSchema } from '~/features/federation/remote-following.schema';
import { pageTitle } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { MESSAGES } from '~/lib/texts/messages';
import { REMOTE_FOLLOWING_TEXTS as T } from '~/lib/texts/remote-following';
import type { Route } from './+types/authorize-interaction';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, T.interactionHeading) }, { name: 'robots', content: 'noindex' }];

/**
 * Where another server's "Follow from your server" sends a reader of this site (our WebFinger
 * names it, docs/decisions/081): they confirm, and the follow is made by /following's form.
 */
export function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  const parsed = InteractionSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  return { account: parsed.success ? accountOfInteraction(parsed.data.uri) : null };
}

export default function AuthorizeInteraction({ loaderData }: Route.ComponentProps) {
  const { account } = loaderData;
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{T.interactionHeading}</h1>
      {account ? (
        <Form method="post" action="/following" className="mt-4 flex flex-col gap-3" data-testid="interaction">
          <p>{T.interactionIntro}</p>
          <p className="break-all rounded bg-base-200 px-3 py-2 font-mono">{account}</p>
          <input type="hidden" name="intent" value="follow-remote" />
          <input type="hidden" name="account" value={account} />
          <button type="submit" className="btn btn-primary self-start">
            {T.followButton}
          </button>
        </Form>
      ) : (
        <p className="mt-4">{T.interactionUnknown}</p>
      )}
      <Link to="/following" className="btn btn-ghost btn-sm mt-6">
        {MESSAGES.following}
      </Link>
    </section>
  );
}
