import { data, Link } from 'react-router';
import { AppError } from '~/lib/core/errors';
import { isCommentTool, runCommentTool } from '~/features/blogs/comment-form.server';
import { listThread } from '~/features/blogs/comments.service.server';
import { CommentNode, threadTrees } from '~/features/blogs/components/comment-thread';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { defineAction } from '~/lib/page/page-action.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { CommentSchema } from '~/features/blogs/blogs.schema';
import type { Route } from './+types/comment-thread';

/** "Continue this thread": one comment and the replies under it (docs/decisions/060). */
export async function loader({ context, params }: Route.LoaderArgs) {
  try {
    const thread = await listThread(context.service, params.commentId);
    // The address names its blog: a comment under another blog's address is not found there.
    if (thread.blogId !== params.id) throw new AppError('not_found', MESSAGES.commentNotFound);
    return { ...thread, signedIn: context.user !== null };
  } catch (error) {
    errorPage(error);
  }
}

/** The comment tools (reply, like, pin, hide, edit, delete) on a sub-thread's page; signed out, they go to log in. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.comment], input: CommentSchema },
  async ({ request, params }, { ctx }) => {
    const form = await request.formData();
    const intent = form.get('intent');
    if (!isCommentTool(intent)) throw data(null, { status: 400 });
    return runCommentTool(ctx, intent, form, `/blogs/${params.id}/comments/${params.commentId}#comment-${String(form.get('commentId') ?? '')}`);
  },
);

export const meta: Route.MetaFunction = ({ matches, params }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.threadHeading} · ${site.siteName}`, description: MESSAGES.threadHeading, path: `/blogs/${params.id}/comments/${params.commentId}`, index: false });
};

export default function CommentThread({ loaderData, params }: Route.ComponentProps) {
  const view = { blogId: params.id, isOwner: loaderData.isOwner, signedIn: loaderData.signedIn };
  return (
    <section className="reading-column py-8 sm:py-12" aria-labelledby="thread-heading">
      <p>
        <Link to={`${loaderData.blogPath}#comments`} className="link link-primary text-sm font-semibold">
          ← {MESSAGES.backToPost}
        </Link>
      </p>
      <h1 id="thread-heading" className="mt-4 text-2xl font-bold">{MESSAGES.threadHeading}</h1>
      <ol className="mt-6 flex flex-col gap-4" aria-label="Comments" data-testid="comments">
        {threadTrees(loaderData.comments).map((node) => (
          <CommentNode key={node.comment._id} node={node} view={view} level={0} />
        ))}
      </ol>
    </section>
  );
}
