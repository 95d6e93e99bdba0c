import { Form, Link, redirect } from 'react-router';
import { RemoveFollowerSchema } from '~/features/federation/federation.schema';
import { fediverseHandleOf, ownFediverseFollowers, removeOwnRemoteFollower } from '~/features/federation/handles.service.server';
import { FediverseHandle } from '~/features/federation/components/fediverse-handle';
import { withFlash } from '~/lib/page/flash.server';
import { backWithRefusal } from '~/lib/page/page-errors.server';
import { defineAction } from '~/lib/page/page-action.server';
import { pageTitle } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import type { Route } from './+types/fediverse-followers';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, FEDERATION_TEXTS.followersHeading) }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = userOrRedirectToLogin(context, request);
  const followers = await ownFediverseFollowers(context.service);
  if (followers === null) throw redirect('/profile');
  return { followers, handle: await fediverseHandleOf(context.service, user.id) };
}

export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [], input: RemoveFollowerSchema }, async ({ request }, { ctx, input }) => {
  const parsed = input.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return redirect('/profile/fediverse');
  try {
    await removeOwnRemoteFollower(ctx, parsed.data.followerId);
    return redirect('/profile/fediverse', { headers: withFlash({ type: 'toast', kind: 'success', text: FEDERATION_TEXTS.followerRemoved }) });
  } catch (error) {
    return backWithRefusal(error, '/profile/fediverse');
  }
});

/** The writer's handle and who follows them from other servers, each with Remove (docs/product.md#the-fediverse). */
export default function FediverseFollowers({ loaderData }: Route.ComponentProps) {
  const { followers, handle } = loaderData;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{FEDERATION_TEXTS.followersHeading}</h1>
      {handle ? <FediverseHandle handle={handle} /> : null}
      {followers.length === 0 ? <p className="mt-6 opacity-90">{FEDERATION_TEXTS.noRemoteFollowers}</p> : null}
      <ul className="mt-6 flex flex-col gap-3" data-testid="fediverse-followers">
        {followers.map((f) => (
          <li key={f.id} className="card card-side items-center gap-3 border border-base-300 bg-base-100 p-4 shadow-sm">
            <a href={f.actorUri} className="link min-w-0 flex-1 truncate" rel="noopener nofollow ugc">
              {f.handle}
            </a>
            <Form method="post">
              <input type="hidden" name="followerId" value={f.id} />
              <button type="submit" className="btn btn-outline btn-secondary btn-sm" aria-label={`${FEDERATION_TEXTS.removeFollower} ${f.handle}`}>
                {FEDERATION_TEXTS.removeFollower}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <Link to="/profile" className="btn btn-ghost btn-sm mt-6">
        Back to profile
      </Link>
    </section>
  );
}
