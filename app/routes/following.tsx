import { Form, Link, redirect } from 'react-router';
import { listFollowing, unfollowWriter } from '~/features/follows/follows.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { backWithRefusal } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import type { Route } from './+types/following';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.following} · ${site.siteName}`, description: MESSAGES.followingIntro, path: '/following', index: false });
};

export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  return { writers: await listFollowing(context.service) };
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: 'id' },
  async ({ request }, { ctx }) => {
    const form = await request.formData();
    try {
      await unfollowWriter(ctx, String(form.get('writerId') ?? ''));
      return redirect('/following');
    } catch (error) {
      return backWithRefusal(error, '/following');
    }
  },
);

/** The writers the signed-in reader follows, each with an Unfollow button. */
export default function Following({ loaderData }: Route.ComponentProps) {
  const { writers } = loaderData;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.following}</h1>
      <p className="mt-2 opacity-90">{writers.length ? MESSAGES.followingIntro : MESSAGES.followingEmpty}</p>
      {writers.length ? null : <Link to="/allblogs" className="btn btn-primary btn-sm mt-4">{MESSAGES.startReading}</Link>}
      <ul className="mt-6 flex flex-col gap-3" data-testid="following-list">
        {writers.map((w) => (
          <li key={w.writerId} className="card card-side items-center border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="avatar avatar-placeholder mr-4">
              <div className="w-12 rounded-full bg-primary text-primary-content">
                {w.photo ? <img src={w.photo} alt="" width={48} height={48} /> : <span className="text-lg">{w.name.slice(0, 1).toUpperCase()}</span>}
              </div>
            </div>
            <div className="min-w-0 flex-1">
              <p className="truncate font-semibold">{w.name}</p>
              <p className="text-sm opacity-80">{w.delivery === 'post' ? MESSAGES.deliveryPost : MESSAGES.deliveryDigest}</p>
            </div>
            <Form method="post">
              <input type="hidden" name="writerId" value={w.writerId} />
              <button type="submit" className="btn btn-outline btn-secondary btn-sm" aria-label={`${MESSAGES.unfollow} ${w.name}`}>
                {MESSAGES.unfollow}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <p className="mt-6 text-sm">
        <Link to="/mail/preferences" className="link link-primary">{MESSAGES.preferencesTitle}</Link>
      </p>
    </section>
  );
}
