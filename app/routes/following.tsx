import { Form, Link, redirect } from 'react-router';
import { LocalTime } from '~/components/local-format';
import { blogPath } from '~/features/blogs/blog-path';
import { listFollowedWritersBlogs } from '~/features/blogs/blogs.service.server';
import { FollowRemoteForm } from '~/features/federation/components/follow-remote-form';
import { RemotePostCard } from '~/features/federation/components/remote-post-card';
import { federates } from '~/features/federation/handles.service.server';
import { FOLLOWING_FEED_LIMIT, FollowRemoteSchema, ReplyRemoteSchema, UnfollowRemoteSchema } from '~/features/federation/remote-following.schema';
import { followRemoteAccount, listRemoteFollowing, listRemoteFollowingPosts, replyToRemotePost, unfollowRemoteAccount } from '~/features/federation/remote-following.service.server';
import { listFollowing, unfollowWriter } from '~/features/follows/follows.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { REMOTE_FOLLOWING_TEXTS as T } from '~/lib/texts/remote-following';
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
  const ctx = context.service;
  const [writers, remote, local, remotePosts] = await Promise.all([listFollowing(ctx), listRemoteFollowing(ctx), listFollowedWritersBlogs(ctx, FOLLOWING_FEED_LIMIT), listRemoteFollowingPosts(ctx)]);
  // Writers here and accounts elsewhere, in one stream by date (docs/decisions/081).
  const posts = [
    ...local.map((blog) => ({ kind: 'local' as const, at: blog.createdAt, blog })),
    ...remotePosts.map((post) => ({ kind: 'remote' as const, at: post.publishedAt, post })),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, FOLLOWING_FEED_LIMIT);
  return { writers, remote, posts, federates: federates(ctx) };
}

const BACK = '/following';
const toast = (kind: 'success' | 'error', text: string) => ({ headers: withFlash({ type: 'toast', kind, text }) });

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.comment, RATE_LIMITS.remoteFollow], input: { follow: FollowRemoteSchema, unfollow: UnfollowRemoteSchema, reply: ReplyRemoteSchema } },
  async ({ request }, { ctx, input }) => {
    const form = Object.fromEntries(await request.formData());
    try {
      if (form.intent === 'follow-remote') {
        const parsed = input.follow.safeParse(form);
        if (!parsed.success) return redirect(BACK, toast('error', parsed.error.issues[0]!.message));
        await followRemoteAccount(ctx, parsed.data);
        return redirect(BACK, toast('success', T.followed));
      }
      if (form.intent === 'unfollow-remote') {
        const parsed = input.unfollow.safeParse(form);
        if (parsed.success) await unfollowRemoteAccount(ctx, parsed.data.followId);
        return redirect(BACK, toast('success', T.unfollowed));
      }
      if (form.intent === 'reply') {
        const parsed = input.reply.safeParse(form);
        if (!parsed.success) return redirect(BACK, toast('error', parsed.error.issues[0]!.message));
        await replyToRemotePost(ctx, parsed.data);
        return redirect(BACK, toast('success', T.replySent));
      }
      await unfollowWriter(ctx, String(form.writerId ?? ''));
      return redirect(BACK);
    } catch (error) {
      return backWithRefusal(error, BACK);
    }
  },
);

/** The writers and accounts elsewhere the signed-in reader follows, and their newest posts. */
export default function Following({ loaderData }: Route.ComponentProps) {
  const { writers, remote, posts } = loaderData;
  const followsAnyone = writers.length + remote.length > 0;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{MESSAGES.following}</h1>
      {/* Mail comes for writers here only: with accounts elsewhere alone, the line would promise what does not come. */}
      {writers.length || !followsAnyone ? <p className="mt-2 opacity-90">{writers.length ? MESSAGES.followingIntro : MESSAGES.followingEmpty}</p> : null}
      {followsAnyone ? null : <Link to="/allblogs" className="btn btn-primary btn-sm mt-4">{MESSAGES.startReading}</Link>}
      <ul className={writers.length ? 'mt-6 flex flex-col gap-3' : 'hidden'} data-testid="following-list">
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
      {loaderData.federates ? (
        <div className="mt-8">
          <h2 className="text-xl font-bold">{T.accountsHeading}</h2>
          <ul className="mt-3 flex flex-col gap-3" data-testid="remote-following-list">
            {remote.map((r) => (
              <li key={r.id} className="card card-side items-center gap-3 border border-base-300 bg-base-100 p-4 shadow-sm">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-semibold">{r.name || r.handle}</p>
                  <p className="break-all text-sm opacity-80">
                    {r.handle}
                    {r.state === 'pending' ? <span className="badge badge-outline badge-sm ml-2">{T.pending}</span> : null}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="unfollow-remote" />
                  <input type="hidden" name="followId" value={r.id} />
                  <button type="submit" className="btn btn-outline btn-secondary btn-sm" aria-label={`${MESSAGES.unfollow} ${r.handle}`}>
                    {MESSAGES.unfollow}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
          <h3 className="mt-4 font-semibold">{T.formHeading}</h3>
          <FollowRemoteForm />
        </div>
      ) : null}
      {followsAnyone ? (
        <div className="mt-10">
          <h2 className="text-xl font-bold">{T.postsHeading}</h2>
          {posts.length === 0 ? <p className="mt-3 opacity-90">{T.noPosts}</p> : null}
          <ol className="mt-3 flex flex-col gap-4" data-testid="following-posts">
            {posts.map((item) =>
              item.kind === 'remote' ? (
                <li key={`r-${item.post.id}`}>
                  <RemotePostCard post={item.post} />
                </li>
              ) : (
                <li key={`l-${item.blog._id}`}>
                  <article className="card border border-base-300 bg-base-100 p-4 shadow-sm" data-testid="local-post">
                    <p className="text-sm">
                      <span className="font-semibold">{item.blog.name}</span>
                      <span className="opacity-80">
                        {' '}· <LocalTime iso={item.blog.createdAt} />
                      </span>
                    </p>
                    <h3 className="mt-2 text-lg font-bold">
                      <Link to={blogPath(item.blog)} className="link link-hover">
                        {item.blog.title}
                      </Link>
                    </h3>
                    <p className="mt-1 opacity-90">{item.blog.short_description}</p>
                  </article>
                </li>
              ),
            )}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
