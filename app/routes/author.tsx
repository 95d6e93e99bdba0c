import { Link, redirect } from 'react-router';
import { Avatar } from '~/components/avatar';
import { FeedLink } from '~/components/feed-link';
import { LocalNumber } from '~/components/local-format';
import { toCard } from '~/features/blogs/blogs.presenter';
import { listAuthorBlogs } from '~/features/blogs/blogs.service.server';
import { StoryCard } from '~/features/blogs/components/story-card';
import { authorFeedPath } from '~/features/feeds/feeds.service.server';
import { FollowButton } from '~/features/follows/components/follow-button';
import { countFollowers, followStateForWriter } from '~/features/follows/follows.service.server';
import { fediverseHandleOf } from '~/features/federation/handles.service.server';
import { AuthorAbout } from '~/features/users/components/author-about';
import { getAuthor } from '~/features/users/users.service.server';
import { ReportButton } from '~/features/moderation/components/report-button';
import { runModerationForm } from '~/features/moderation/moderation-form.server';
import { getWriterModeration } from '~/features/moderation/spam-hold.service.server';
import { onDemand } from '~/components/on-demand';
import { withFlash } from '~/lib/page/flash.server';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { defineAction } from '~/lib/page/page-action.server';
import { ModerationReasonSchema, SuspendSchema } from '~/features/moderation/moderation.schema';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/author';

// Only where federation is on: a site without it never loads its code (docs/decisions/038, 068).
const FediverseHandle = onDemand(() => import('~/features/federation/components/fediverse-handle').then((m) => ({ default: m.FediverseHandle })), {
  serverMarkup: '[data-testid="fediverse-handle"]',
});
// Only moderators see it: its code loads when it is shown (docs/decisions/038).
const ModerateWriter = onDemand(() => import('~/features/moderation/components/moderate-writer').then((m) => ({ default: m.ModerateWriter })), {
  serverMarkup: '[data-testid="moderate-writer"]',
});

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  if (!loaded) return [{ title: site.siteName }];
  const { author, feeds } = loaded;
  return [
    ...pageMeta(site, { title: `${author.name} · ${site.siteName}`, description: `Blogs by ${author.name} on ${site.siteName}.`, path: `/authors/${author.id}` }),
    // Feed readers given this page find the writer's own feed (docs/decisions/031).
    { tagName: 'link', rel: 'alternate', type: 'application/atom+xml', href: feeds.atom, title: `${author.name} (Atom)` },
    { tagName: 'link', rel: 'alternate', type: 'application/rss+xml', href: feeds.rss, title: `${author.name} (RSS)` },
  ];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const [author, blogs] = await Promise.all([getAuthor(context.service, params.id), listAuthorBlogs(context.service, params.id)]);
    const isMe = context.user?.id === author.id;
    return {
      author,
      // Cards, not whole blogs: the page never ships the long descriptions.
      blogs: blogs.map((blog) => ({ ...toCard(blog), ...(isMe ? { views: blog.views ?? 0 } : {}) })),
      isMe,
      signedIn: context.user !== null,
      follow: await followStateForWriter(context.service, author.id),
      followers: await countFollowers(context.service, author.id),
      moderation: await getWriterModeration(context.service, author.id),
      feeds: { atom: authorFeedPath(author.id, 'atom'), rss: authorFeedPath(author.id, 'rss') },
      fediverse: await fediverseHandleOf(context.service, author.id),
    };
  } catch (error) {
    errorPage(error);
  }
}

/**
 * Suspend, lift a suspension or approve the account, from the writer's own page (moderators who
 * outrank the writer; the use cases check it). Delete-type intents are the queue's, not posted here.
 */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: { reason: ModerationReasonSchema, suspend: SuspendSchema } },
  async ({ request, params }, { ctx }) => {
    const back = `/authors/${params.id}`;
    const form = await request.formData();
    if (!['suspend', 'unsuspend', 'approve-account'].includes(String(form.get('intent')))) return redirect(back);
    form.set('userId', params.id);
    try {
      const result = await runModerationForm(ctx, form);
      if ('confirmDelete' in result || !result.done) return redirect(back, { headers: withFlash({ type: 'toast', kind: 'error', text: 'error' in result ? result.error : MESSAGES.moderationReasonLabel }) });
    } catch (error) {
      return redirect(back, { headers: withFlash({ type: 'toast', kind: 'error', text: pageRefusal(error).message }) });
    }
    return redirect(back, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.moderationDone }) });
  },
);

/** A writer's page (docs/product.md#community-features): name, photo, follow, their feed and their blogs; the writer also sees Hidden ones with views and likes. */
export default function Author({ loaderData }: Route.ComponentProps) {
  const { author, blogs, isMe, signedIn, follow, followers, feeds, moderation, fediverse } = loaderData;
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-10">
      <header className="flex flex-wrap items-center gap-5">
        <Avatar src={author.photo} alt="" size={96} />
        {/* Beside the photo when there is room for the name; a long name wraps there instead of
            pushing the photo onto a row of its own. */}
        <div className="min-w-0 flex-1 basis-64">
          <h1 className="font-serif text-3xl font-bold tracking-tight sm:text-4xl">{author.name}</h1>
          <p className="mt-1 opacity-85" data-testid="author-count">
            {isMe ? 'Your blogs' : 'Blogs'}: <LocalNumber value={blogs.length} />
            <span aria-hidden="true"> · </span>
            <span data-testid="author-followers"><LocalNumber value={followers} /> {followers === 1 ? 'follower' : 'followers'}</span>
          </p>
          <AuthorAbout about={author} />
          <div className="mt-3 flex flex-wrap items-center gap-x-5 gap-y-2">
            {follow ? <FollowButton writerId={follow.writerId} writerName={author.name} following={follow.following} redirectTo={`/authors/${author.id}`} /> : null}
            <FeedLink href={feeds.rss}>{isMe ? 'Your feed (RSS)' : `Follow ${author.name} by RSS`}</FeedLink>
          </div>
          {fediverse ? <FediverseHandle handle={fediverse} /> : null}
        </div>
        {signedIn && !isMe ? (
          <div className="ml-auto self-start">
            <ReportButton targetType="user" targetId={author.id} label={`${MESSAGES.reportAuthor}: ${author.name}`} />
          </div>
        ) : null}
      </header>
      {moderation ? <ModerateWriter writerId={author.id} moderation={moderation} /> : null}
      {blogs.length === 0 ? (
        <div className="mt-10 flex flex-col items-start gap-4">
          <p className="opacity-85">No blogs yet.</p>
          {isMe ? <Link to="/addBlog" className="btn btn-primary btn-sm">{MESSAGES.writeStory}</Link> : null}
        </div>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="author-blogs">
          {blogs.map((blog) => (
            <li key={blog._id}>
              <StoryCard
                blog={blog}
                actions={
                  blog.views !== undefined ? (
                    <p className="text-sm opacity-85" data-testid="author-stats">
                      <LocalNumber value={blog.views} /> {blog.views === 1 ? 'view' : 'views'} · <LocalNumber value={blog.likes} /> {blog.likes === 1 ? 'like' : 'likes'}
                    </p>
                  ) : null
                }
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
