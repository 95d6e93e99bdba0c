import { type MouseEvent, useEffect } from 'react';
import { data, Link, redirect } from 'react-router';
import { likedByViewer } from '~/features/blogs/blogs.presenter';
import { CommentSchema, fieldErrors } from '~/features/blogs/blogs.schema';
import { addComment, deleteBlog, getBlogWithAuthor, getPostEnd } from '~/features/blogs/blogs.service.server';
import { isCommentTool, runCommentTool } from '~/features/blogs/comment-form.server';
import { BlogPhoto } from '~/features/blogs/components/blog-photo';
import type { CommentsActionData } from '~/features/blogs/components/comments';
import { blogPath } from '~/features/blogs/blog-path';
import { TagList } from '~/features/tags/components/tag-list';
import { RemovedNotice, ReportButton, WaitingNotice } from '~/features/moderation/components/on-demand';
import { WhileSuspended } from '~/features/moderation/components/while-suspended';
import { onDemand } from '~/components/on-demand';
import { deferredSection } from '~/components/deferred-section';
import { getOwnSuspension } from '~/kernel/standing.server';
import { LikeButton } from '~/features/blogs/components/like-button';
import { FediverseReactions } from '~/features/federation/components/fediverse-reactions';
import { fediverseHandleOf, fediverseReactionsOf } from '~/features/federation/handles.service.server';
import { FollowButton } from '~/features/follows/components/follow-button';
import { followStateForWriter } from '~/features/follows/follows.service.server';
import { Avatar } from '~/components/avatar';
import { LocalNumber, LocalTime } from '~/components/local-format';
import { readingTime } from '~/features/blogs/reading-time';
import { MarkdownBody } from '~/features/blogs/components/markdown-body';
import { BodyUnrenderable, renderMarkdown } from '~/features/blogs/blogs.service.server';
import { ownImageBases, ownPhoto } from '~/features/images/images.service.server';
import { useFeedback } from '~/components/feedback';
import { RateLimitedError } from '~/lib/core/errors';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { absoluteUrl, pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin, signedOutPost } from '~/lib/page/session.server';
import type { Route } from './+types/blog-detail';
import type { CachedRead } from '~/lib/render/cacheability';

// Only the writer sees these (a reader never does): their code loads when one is shown (docs/decisions/038, 077).
const PublishedPanel = onDemand(() => import('~/features/blogs/components/published-panel').then((m) => ({ default: m.PublishedPanel })), {
  serverMarkup: '[data-testid="published-panel"]',
});
const DeleteBlog = onDemand(() => import('~/features/blogs/components/delete-blog').then((m) => ({ default: m.DeleteBlog })), {
  serverMarkup: '[data-testid="delete-blog"]',
});
const HiddenBanner = onDemand(() => import('~/components/hidden-badge').then((m) => ({ default: m.HiddenBanner })), {
  serverMarkup: '[data-testid="hidden-banner"]',
});
const HiddenBadge = onDemand(() => import('~/components/hidden-badge').then((m) => ({ default: m.HiddenBadge })), {
  serverMarkup: '.badge-hidden',
});

// Below the body, out of the first screen: the server renders them whole, and their code loads as
// the reader comes near them (docs/decisions/036, 077).
const PostEnd = deferredSection(() => import('~/features/blogs/components/post-end').then((m) => ({ default: m.PostEnd })));
const Comments = deferredSection(() => import('~/features/blogs/components/comments').then((m) => ({ default: m.Comments })));
// The writer's fediverse handle and "Follow from your server", as on her page (docs/decisions/088):
// below the post, so its code loads near the viewport, and only where federation is on.
const FediverseHandle = deferredSection(() => import('~/features/federation/components/fediverse-handle').then((m) => ({ default: m.FediverseHandle })));

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'blog' } satisfies CachedRead;
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

/**
 * Title, description and canonical URL; Open Graph and Twitter cards for sharing; a JSON-LD
 * BlogPosting for search engines. React Router writes the JSON-LD with `<` escaped, so a title
 * cannot close the script element (docs/decisions/013-seo-and-sharing.md).
 */
export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  if (!loaded) return [{ title: site.siteName }];
  const { blog } = loaded;
  const url = absoluteUrl(site, blogPath(blog));
  const image = loaded.sharedPhoto ? absoluteUrl(site, loaded.sharedPhoto) : undefined;
  return [
    ...pageMeta(site, {
      title: `${blog.title} · ${site.siteName}`,
      description: blog.short_description,
      path: blogPath(blog),
      index: blog.availability === 'Public' && !blog.removed && !blog.pending,
      // A writer on the spam hold: not indexed, and its links pass nothing (docs/decisions/029).
      robots: loaded.held ? 'noindex' : undefined,
    }),
    { property: 'og:type', content: 'article' },
    { property: 'og:site_name', content: site.siteName },
    { property: 'og:title', content: blog.title },
    { property: 'og:description', content: blog.short_description },
    { property: 'og:url', content: url },
    ...(image ? [{ property: 'og:image', content: image }, { property: 'og:image:alt', content: blog.title }] : []),
    { property: 'article:published_time', content: blog.createdAt },
    { property: 'article:section', content: blog.category },
    ...blog.tags.map((tag) => ({ property: 'article:tag', content: tag })),
    { name: 'twitter:card', content: image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: blog.title },
    { name: 'twitter:description', content: blog.short_description },
    ...(image ? [{ name: 'twitter:image', content: image }] : []),
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: blog.title,
        description: blog.short_description,
        ...(image ? { image: [image] } : {}),
        datePublished: blog.createdAt,
        author: { '@type': 'Person', name: blog.name },
        publisher: { '@type': 'Organization', name: site.siteName, logo: { '@type': 'ImageObject', url: absoluteUrl(site, '/apple-touch-icon.png') } },
        articleSection: blog.category,
        ...(blog.tags.length > 0 ? { keywords: blog.tags.join(', ') } : {}),
        url,
        mainEntityOfPage: { '@type': 'WebPage', '@id': url },
        interactionStatistic: { '@type': 'InteractionCounter', interactionType: 'https://schema.org/LikeAction', userInteractionCount: blog.likes },
      },
    },
  ];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const [{ blog, authorId, authorPhoto, held }] = await Promise.all([getBlogWithAuthor(context.service, params.id), PostEnd.ready, Comments.ready, FediverseHandle.ready]);
    // An old title's address (or a mistyped one) answers 301 to the current (docs/decisions/069);
    // /blogs/{id} alone answers as it always did, its canonical link naming the slugged address.
    if ('slug' in params && params.slug !== undefined && params.slug !== blog.slug) return redirect(blogPath(blog), 301);
    const [follow, end, suspension, fediverse, handle] = await Promise.all([
      followStateForWriter(context.service, authorId),
      getPostEnd(context.service, { id: blog._id, ownerId: authorId, createdAt: blog.createdAt }),
      getOwnSuspension(context.service),
      fediverseReactionsOf(context.service, blog._id),
      fediverseHandleOf(context.service, authorId),
    ]);
    const imageBases = ownImageBases(context.deps.config);
    // Sharing tags name only a photo of our store: a card built from another address would let
    // its host follow every share (docs/decisions/050).
    const sharedPhoto = ownPhoto(blog.photo, imageBases);
    const page = { blog, authorId, authorPhoto, held, sharedPhoto, signedIn: context.user !== null, follow, end, suspension, fediverse, handle };
    try {
      return data({ ...page, html: await renderMarkdown(blog.long_description, { nofollow: held, imageBases }) as string | null });
    } catch (error) {
      // A body that cannot be rendered in time (docs/decisions/047): the page, with a message in
      // its place, as a 503 that no cache keeps, so a later view renders it again.
      if (!(error instanceof BodyUnrenderable)) throw error;
      return data({ ...page, html: null }, { status: 503 });
    }
  } catch (error) {
    errorPage(error);
  }
}

/** A refused delete comes back to the address it was posted from (the post's, as read). */
async function deleteAndLeave(ctx: Route.ActionArgs['context']['service'], id: string, back: string) {
  try {
    await deleteBlog(ctx, id);
  } catch (error) {
    pageRefusal(error, { boundary: ['not_found'] });
    const flash = { type: 'dialog' as const, kind: 'error' as const, title: MESSAGES.deleteErrorTitle, text: MESSAGES.deleteErrorText };
    return redirect(back, { headers: withFlash(flash) });
  }
  return redirect('/allblogs', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.blogDeleted }) });
}

/** Where a comment tool returns to: the comment it was about, on the address it was posted from (its place survives a reload). */
const commentPlace = (back: string, form: FormData) => `${back}#comment-${String(form.get('commentId') ?? '')}`;

/** A signed-out post: deleting the blog or a comment tool goes to log in; a comment comes back with its text and a way in. */
async function commentSignedOut({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  if (intent === 'delete' || isCommentTool(intent)) userOrRedirectToLogin(context, request);
  const commentText = form.get('commentText');
  return signedOutPost<CommentsActionData>(request, { intent: 'comment', error: MESSAGES.commentError, values: { commentText: typeof commentText === 'string' ? commentText : '' } }, '#comments');
}

/** Comment, the comment tools (reply, like, pin, hide, edit, delete) and delete, posted by this page's forms (with or without JavaScript). */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.comment], input: CommentSchema, signedOut: commentSignedOut },
  async ({ request, params }, { ctx, input }) => {
    const form = await request.formData();
    const intent = form.get('intent');
    const back = new URL(request.url).pathname;
    try {
      if (intent === 'delete') return await deleteAndLeave(ctx, params.id, back);
      if (isCommentTool(intent)) return await runCommentTool(ctx, intent, form, commentPlace(back, form));
      const parsed = input.safeParse({ commentText: form.get('commentText') ?? '' });
      if (!parsed.success) {
        return data<CommentsActionData>({ intent: 'comment', fieldError: fieldErrors(parsed.error).commentText }, { status: 400 });
      }
      await addComment(ctx, params.id, parsed.data);
      return redirect(`${back}#comments`, {
        headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.commentSuccess, duration: FEEDBACK_MS.success }),
      });
    } catch (error) {
      const refused = pageRefusal(error, { boundary: ['not_found'] });
      const message = refused.code === 'forbidden' || refused.code === 'rate_limited' ? refused.message : MESSAGES.commentError;
      return data<CommentsActionData>({ intent: 'comment', error: message }, { status: refused.status, headers: refused instanceof RateLimitedError ? refused.headers : undefined });
    }
  },
);

const VIEWED_KEY = 'viewedBlogs';
const VIEWED_KEEP = 500;

/** docs/product.md#views: a view is sent the first time this browser opens the blog. */
function useCountView(id: string) {
  useEffect(() => {
    let viewed: string[] = [];
    try {
      const stored: unknown = JSON.parse(localStorage.getItem(VIEWED_KEY) ?? '[]');
      if (Array.isArray(stored)) viewed = stored.filter((v): v is string => typeof v === 'string');
    } catch {
      // A corrupt entry is replaced below.
    }
    if (viewed.includes(id)) return;
    localStorage.setItem(VIEWED_KEY, JSON.stringify([...viewed, id].slice(-VIEWED_KEEP)));
    fetch(`/api/blogs/${id}/view`, { method: 'PATCH' }).catch((error: unknown) => console.warn('view not counted', error));
  }, [id]);
}

export default function BlogDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { blog, authorId, authorPhoto, html, signedIn, follow, end, suspension, fediverse, handle } = loaderData;
  const { isOwner } = blog;
  const { dialog } = useFeedback();
  useCountView(blog._id);

  function onUpdate(event: MouseEvent<HTMLAnchorElement>) {
    if (isOwner) return;
    event.preventDefault();
    if (!signedIn) {
      window.location.assign(`/login?redirectTo=${encodeURIComponent(`/updateBlog/${blog._id}`)}`);
      return;
    }
    void dialog({ title: MESSAGES.onlyOwnerUpdate, kind: 'error' });
  }

  return (
    <article className="py-8 sm:py-12">
      <header className="reading-column">
        {blog.removed ? <div className="mb-6"><RemovedNotice reason={blog.removed.reason} /></div> : null}
        {blog.pending ? <div className="mb-6"><WaitingNotice /></div> : null}
        {blog.availability === 'Hidden' ? <div className="mb-6"><HiddenBanner /></div> : null}
        {isOwner && blog.availability === 'Public' && !blog.removed && !blog.pending ? <PublishedPanel id={blog._id} blog={blog} createdAt={blog.createdAt} /> : null}
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Link to={`/allblogs?${new URLSearchParams({ category: blog.category })}`} className="badge badge-secondary badge-outline hover:badge-secondary">{blog.category}</Link>
          <span className="badge badge-outline">{blog.type}</span>
          {blog.availability === 'Hidden' ? <HiddenBadge /> : null}
        </div>
        {/* A title or summary in Arabic or Hebrew reads right to left on this left-to-right page. */}
        <h1 dir="auto" className="mt-4 font-serif text-4xl font-bold leading-tight tracking-tight sm:text-5xl">{blog.title}</h1>
        <p dir="auto" className="mt-4 font-serif text-lede opacity-85">{blog.short_description}</p>
        <div className="mt-6 flex items-center gap-3 border-y border-base-300 py-4 text-sm">
          <Avatar src={authorPhoto} alt="" size={44} />
          <div className="min-w-0">
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <Link to={`/authors/${authorId}`} className="font-semibold hover:underline" data-testid="author">{blog.name}</Link>
              {follow ? <FollowButton writerId={follow.writerId} writerName={blog.name} following={follow.following} redirectTo={blogPath(blog)} /> : null}
            </span>
            <p className="flex flex-wrap gap-x-2 opacity-80">
              <span>{MESSAGES.postedOn} <LocalTime iso={blog.createdAt} /></span>
              <span aria-hidden="true">·</span>
              <span>{readingTime(blog.long_description)}</span>
              {/* Its writer may keep her view counts to herself (docs/decisions/069). */}
              {blog.views === null ? null : (
                <>
                  <span aria-hidden="true">·</span>
                  <span data-testid="views"><LocalNumber value={blog.views} /> {blog.views === 1 ? 'view' : 'views'}</span>
                </>
              )}
            </p>
          </div>
        </div>
      </header>
      {blog.photo ? (
        <figure className="mx-auto mt-8 max-w-5xl overflow-hidden bg-base-300 sm:rounded-box sm:px-0">
          <BlogPhoto src={blog.photo} position={blog.photo_position} sizes="(min-width: 1024px) 1024px, 100vw" eager className="aspect-[16/9] w-full object-cover" />
        </figure>
      ) : null}
      <div className="reading-column">
        {html === null ? (
          <p role="status" className="alert alert-warning mt-8">
            {MESSAGES.bodyUnavailable}
          </p>
        ) : (
          <MarkdownBody html={html} />
        )}
        <TagList tags={blog.tags} className="mt-8" />
        {blog.details ? (
          <section className="mt-8 rounded-box bg-base-200 p-5" aria-labelledby="details-heading">
            <h2 id="details-heading" className="font-semibold">Details</h2>
            <p className="mt-1 whitespace-pre-line">{blog.details}</p>
          </section>
        ) : null}
        <div className="mt-10 flex flex-wrap items-center gap-3 border-t border-base-300 pt-6">
          <LikeButton blogId={blog._id} likes={blog.likes} liked={likedByViewer(blog)} signedIn={signedIn} />
          <FediverseReactions counts={fediverse} />
          <Link to={`/updateBlog/${blog._id}`} className={`btn btn-sm ${isOwner ? 'btn-primary' : 'btn-ghost'}`} onClick={onUpdate}>
            {MESSAGES.updateBlog}
          </Link>
          {isOwner ? <DeleteBlog /> : null}
          {signedIn && !isOwner ? <ReportButton targetType="blog" targetId={blog._id} label={`${MESSAGES.report}: ${blog.title}`} /> : null}
        </div>
        {handle ? <div className="mt-6"><FediverseHandle handle={handle} /></div> : null}
        {/* Only what the end shows: its server copy goes live early when these change (docs/decisions/092). */}
        <PostEnd blog={{ _id: blog._id, slug: blog.slug, title: blog.title, short_description: blog.short_description, name: blog.name }} previous={end.previous} next={end.next} more={end.more} follow={follow} signedIn={signedIn} />
        <WhileSuspended suspension={suspension}>
          <Comments blogId={blog._id} comments={blog.comments ?? []} isOwner={isOwner} signedIn={signedIn} actionData={actionData} />
        </WhileSuspended>
      </div>
    </article>
  );
}
