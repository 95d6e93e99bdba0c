import { data, Link, redirect } from 'react-router';
import { Page } from '~/components/page';
import { readBlogForm, readBlogFormValues, saveBlogForm } from '~/features/blogs/blog-form.server';
import { getBlogForUpdate, updateBlog } from '~/features/blogs/blogs.service.server';
import { dropDraftAfterSave, getDraftOfBlog } from '~/features/blogs/drafts.service.server';
import { BlogForm } from '~/features/blogs/components/blog-form';
import { WhileSuspended } from '~/features/moderation/components/while-suspended';
import { getOwnSuspension } from '~/kernel/standing.server';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { signedOutPost, userOrSignedOutPost } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/update-blog';
import { BlogFormSchema } from '~/features/blogs/blogs.schema';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Edit blog') }];

/** Unknown or someone else's Hidden blog: the 404 page; another user's blog: back with the product's text. */
function refuse(error: unknown, id: string): never {
  const refused = pageRefusal(error);
  if (refused.code === 'forbidden') {
    throw redirect(`/blogs/${id}`, { headers: withFlash({ type: 'dialog', kind: 'error', title: refused.message, timer: FEEDBACK_MS.other }) });
  }
  errorPage(refused);
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = userOrSignedOutPost(context, request);
  // The answer to an edit sent after the session ended: the form shows what was typed.
  if (!user) return { blog: null, author: { email: '', name: '' }, writerId: '', maxUploadMb: context.deps.config.MAX_UPLOAD_MB, suspension: null, draft: null };
  try {
    const [blog, suspension] = await Promise.all([getBlogForUpdate(context.service, params.id), getOwnSuspension(context.service)]);
    // An unsaved edit of the post, kept as its draft until it is saved (docs/decisions/070).
    const draft = await getDraftOfBlog(context.service, params.id);
    return { blog, author: { email: user.email, name: blog.name }, writerId: user.id, maxUploadMb: context.deps.config.MAX_UPLOAD_MB, suspension, draft };
  } catch (error) {
    refuse(error, params.id);
  }
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.upload, RATE_LIMITS.blogWrite], input: BlogFormSchema, signedOut: async ({ context, request }) => signedOutPost(request, { formError: MESSAGES.sessionEnded, values: await readBlogFormValues(context.deps.config, request) }) },
  async ({ context, request, params }, { ctx }) => {
    try {
      // The owner check runs before the upload is read: nobody else's image gets stored.
      await getBlogForUpdate(ctx, params.id);
    } catch (error) {
      refuse(error, params.id);
    }
    const form = await readBlogForm(ctx, context.deps.config, request, 'edit');
    if (!form.ok) return data(form.data, { status: form.status });
    try {
      await saveBlogForm(ctx, form, (input) => updateBlog(ctx, params.id, input));
      await dropDraftAfterSave(ctx, form.draft, params.id);
    } catch (error) {
      const refused = pageRefusal(error);
      return data({ formError: refused.message, values: form.input }, { status: refused.status });
    }
    return redirect('/allblogs', {
      headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.updateBlogSuccess, duration: FEEDBACK_MS.success }),
    });
  },
);

export default function UpdateBlog({ loaderData, actionData }: Route.ComponentProps) {
  const { blog, author, writerId, maxUploadMb, suspension, draft } = loaderData;
  const saved = blog
    ? { title: blog.title, category: blog.category, type: blog.type, short_description: blog.short_description, long_description: blog.long_description, details: blog.details ?? '', availability: blog.availability, photo_focus: blog.photo_focus, mail: blog.mail ?? 'post', tags: blog.tags.join(', ') }
    : {};
  // The draft's fields over the saved post's: an empty draft field is one the writer emptied.
  const defaults = draft ? { ...saved, ...draft.values } : saved;
  return (
    <Page title="Edit blog">
      {blog ? (
        <p className="mt-2 text-sm">
          <Link to={`/blogs/${blog._id}/history`} className="link">History of this post</Link>
        </p>
      ) : null}
      <WhileSuspended suspension={suspension}>
      <BlogForm
        mode="edit"
        author={author}
        maxUploadMb={maxUploadMb}
        defaults={defaults}
        actionData={actionData}
        writerId={writerId}
        blogId={blog?._id}
        draft={draft ? { id: draft.id, photo: draft.photo, updatedAt: draft.updatedAt } : null}
        // The focus marker shows where Automatic puts it only while the writer's choice is Automatic.
        currentPhoto={blog?.photo ? { src: blog.photo, position: blog.photo_focus === 'auto' ? blog.photo_position : null } : null}
      />
      </WhileSuspended>
    </Page>
  );
}
