import { Form, Link, redirect } from 'react-router';
import { Page } from '~/components/page';
import { writerStats } from '~/features/stats/stats.service.server';
import { ShowViewsSchema } from '~/features/users/users.schema';
import { getShowViews, setShowViews } from '~/features/users/users.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { defineAction } from '~/lib/page/page-action.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/profile-stats';

const TITLE = 'My numbers';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${TITLE} · ${site.siteName}`, description: 'Views, likes, comments, followers and mails of my posts.', path: '/profile/stats', index: false });
};

export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  const [stats, showViews] = await Promise.all([writerStats(context.service), getShowViews(context.service)]);
  return { ...stats, showViews };
}

/** Her choice of public view counts (docs/decisions/069); her own numbers here stay whatever she picks. */
export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [], input: ShowViewsSchema }, async ({ request }, { ctx, input }) => {
  const parsed = input.safeParse(Object.fromEntries(await request.formData()));
  if (parsed.success) await setShowViews(ctx, parsed.data.showViews === 'on');
  return redirect('/profile/stats', { headers: withFlash({ type: 'toast', kind: parsed.success ? 'success' : 'error', text: parsed.success ? MESSAGES.preferencesSaved : parsed.error.issues[0]!.message }) });
});

const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/**
 * The writer's own numbers (docs/decisions/066): counted on our server, no cookies, no third
 * party. A table per figure reads on a phone and to a screen reader alike; the day bars are a
 * picture of the same numbers, hidden from assistive technology.
 */
export default function ProfileStats({ loaderData: { days, posts, totals, showViews } }: Route.ComponentProps) {
  const top = Math.max(1, ...posts.flatMap((p) => p.viewsPerDay.map((d) => d.views)));
  return (
    <Page title={TITLE} wide={false}>
      <p className="mt-2 opacity-90">Counted on this site only: no cookies, no outside scripts. Views are counted once per reader and post a day.</p>
      <Form method="post" className="mt-4 flex flex-wrap items-center gap-3 rounded-box border border-base-300 bg-base-100 p-3" data-testid="show-views-form">
        <label className="flex cursor-pointer items-start gap-3">
          <input type="checkbox" name="showViews" defaultChecked={showViews} className="checkbox checkbox-primary mt-0.5" aria-describedby="show-views-hint" />
          <span>
            <span className="font-semibold">{MESSAGES.showViewsLabel}</span>
            <span id="show-views-hint" className="block text-sm opacity-80">{MESSAGES.showViewsHint}</span>
          </span>
        </label>
        <button type="submit" className="btn btn-sm btn-primary ms-auto">Save</button>
      </Form>
      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="stats-totals">
        {(
          [
            ['Views', totals.views],
            ['Likes', totals.likes],
            ['Comments', totals.comments],
            ['Followers', totals.followers],
            ['Mails sent', totals.mailsSent],
          ] as const
        ).map(([label, n]) => (
          <div key={label} className="rounded-box border border-base-300 bg-base-100 p-3">
            <dt className="text-sm font-medium">{label}</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid={`total-${label.toLowerCase().replace(' ', '-')}`}>{n}</dd>
          </div>
        ))}
      </dl>
      {posts.length === 0 ? (
        <p className="mt-6">
          No posts yet. <Link to="/addBlog" className="link link-primary">Write one</Link>
        </p>
      ) : (
        <ul className="mt-8 flex flex-col gap-6">
          {posts.map((post) => (
            <li key={post.id} className="card border border-base-300 bg-base-100 p-4" data-testid="post-stats">
              <h2 className="text-lg font-semibold">
                <Link to={post.path} className="link link-hover">{post.title}</Link>
                {post.hidden ? <span className="badge badge-ghost ml-2 align-middle">Hidden</span> : null}
              </h2>
              <table className="table table-sm mt-2">
                <caption className="sr-only">Figures of {post.title}</caption>
                <tbody>
                  {(
                    [
                      ['Views', post.views],
                      ['Likes', post.likes],
                      ['Comments', post.comments],
                      ['New followers', post.newFollowers],
                      ['Mails sent', post.mailsSent],
                    ] as const
                  ).map(([label, n]) => (
                    <tr key={label}>
                      <th scope="row" className="font-normal">{label}</th>
                      <td className="text-right tabular-nums" data-figure={label}>{n}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <details className="mt-2">
                <summary className="cursor-pointer text-sm">Views per day, last {days.length} days</summary>
                <div className="mt-2 flex h-16 items-end gap-1" aria-hidden="true">
                  {post.viewsPerDay.map((d) => (
                    <div key={d.day} className="flex-1 rounded-t bg-primary" style={{ height: `${Math.max(2, (d.views / top) * 100)}%`, opacity: d.views ? 1 : 0.25 }} />
                  ))}
                </div>
                <table className="table table-xs mt-2">
                  <caption className="sr-only">Views per day of {post.title}</caption>
                  <thead>
                    <tr className="text-base-content"><th scope="col">Day</th><th scope="col" className="text-right">Views</th></tr>
                  </thead>
                  <tbody>
                    {post.viewsPerDay.map((d) => (
                      <tr key={d.day} data-day={d.day}>
                        <td>{dayLabel(d.day)}</td>
                        <td className="text-right tabular-nums">{d.views}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
