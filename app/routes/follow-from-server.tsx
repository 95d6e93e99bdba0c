import { useEffect } from 'react';
import { FollowFromServerSchema } from '~/features/federation/remote-following.schema';
import { followFromServerUrl } from '~/features/federation/remote-following.service.server';
import { AppError } from '~/lib/core/errors';
import { pageTitle } from '~/lib/page/seo';
import { REMOTE_FOLLOWING_TEXTS as T } from '~/lib/texts/remote-following';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import type { Route } from './+types/follow-from-server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, FEDERATION_TEXTS.followFromServer) }, { name: 'robots', content: 'noindex' }];

/**
 * "Follow from your server" on a writer's page (a GET form, so it works before JavaScript loads):
 * on to the reader's own server's follow page, or a plain answer when it names none. Not a
 * redirect: the CSP's `form-action 'self'` stops a form's redirect to another site, so the page
 * goes there itself once loaded, with a link for a browser without JavaScript.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const parsed = FollowFromServerSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return { message: parsed.error.issues[0]!.message };
  try {
    return { url: await followFromServerUrl(context.service, parsed.data) };
  } catch (error) {
    if (error instanceof AppError) return { message: error.message };
    throw error;
  }
}

export default function FollowFromServer({ loaderData }: Route.ComponentProps) {
  const url = 'url' in loaderData ? loaderData.url : null;
  useEffect(() => {
    if (url) window.location.assign(url);
  }, [url]);
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{FEDERATION_TEXTS.followFromServer}</h1>
      {url ? (
        <p className="mt-4">
          <a href={url} className="btn btn-primary" rel="noopener">
            {T.continueToServer}
          </a>
        </p>
      ) : (
        <p className="mt-4" role="alert">{loaderData.message}</p>
      )}
      <button type="button" className="btn btn-ghost btn-sm mt-6" onClick={() => history.back()}>
        {T.goBack}
      </button>
    </section>
  );
}
