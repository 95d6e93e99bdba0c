import { data, redirect } from 'react-router';
import { Page } from '~/components/page';
import { readBlogForm, readBlogFormValues, saveBlogForm } from '~/features/blogs/blog-form.server';
import { createBlog } from '~/features/blogs/blogs.service.server';
import { DraftIdSchema } from '~/features/blogs/drafts.schema';
import { dropDraftAfterSave, getDraft, getLatestNewDraft, newDraftId, scheduleDraft } from '~/features/blogs/drafts.service.server';
import { BlogForm } from '~/features/blogs/components/blog-form';
import { WhileSuspended } from '~/features/moderation/components/while-suspended';
import { getOwnSuspension } from '~/kernel/standing.server';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { signedOutPost, userOrSignedOutPost } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/add-blog';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { BlogFormSchema } from '~/features/blogs/blogs.schema';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Add a blog') }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = userOrSignedOutPost(context, request);
  return {
    author: { email: user?.email ?? '', name: user?.name || MESSAGES.defaultDisplayName },
    writerId: user?.id ?? '',
    maxUploadMb: context.deps.config.MAX_UPLOAD_MB,
    suspension: await getOwnSuspension(context.service),
    // The draft the canvas opens with, typed on whatever device (docs/decisions/070): the one named
    // by `?draft=`, none with `?new`, else the writer's newest.
    draft: user ? await openDraft(context.service, new URL(request.url).searchParams) : null,
  };
}

async function openDraft(ctx: Parameters<typeof getLatestNewDraft>[0], search: URLSearchParams) {
  if (search.has('new')) return null;
  const id = DraftIdSchema.safeParse({ id: search.get('draft') });
  if (!id.success) return getLatestNewDraft(ctx);
  try {
    return await getDraft(ctx, id.data.id);
  } catch (error) {
    errorPage(pageRefusal(error));
  }
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.upload, RATE_LIMITS.blogWrite], input: BlogFormSchema, signedOut: async ({ context, request }) => signedOutPost(request, { formError: MESSAGES.sessionEnded, values: await readBlogFormValues(context.deps.config, request) }) },
  async ({ context, request }, { ctx }) => {
    const form = await readBlogForm(ctx, context.deps.config, request, 'add');
    if (!form.ok) return data(form.data, { status: form.status });
    const { photo, ...fields } = form.input;
    try {
      // At a chosen time: kept as the draft, and the job runner publishes it then (docs/decisions/070).
      if (form.publishAt) {
        await saveBlogForm(ctx, form, (input) => scheduleDraft(ctx, form.draft ?? newDraftId(), { ...input, photo: photo!, publish_at: form.publishAt! }));
        return redirect('/profile#drafts', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.scheduledToast, duration: FEEDBACK_MS.success }) });
      }
      await saveBlogForm(ctx, form, (input) => createBlog(ctx, { ...input, photo: photo! }));
      await dropDraftAfterSave(ctx, form.draft);
    } catch (error) {
      const refused = pageRefusal(error);
      if (refused.field === 'publish_at') return data({ errors: { publish_at: refused.message }, values: fields }, { status: refused.status });
      return data({ formError: refused.message, values: fields }, { status: refused.status });
    }
    return redirect('/allblogs', {
      headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.addBlogSuccess, duration: FEEDBACK_MS.success }),
    });
  },
);

export default function AddBlog({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Page title="Add a blog">
      <WhileSuspended suspension={loaderData.suspension}>
        <BlogForm
          mode="add"
          author={loaderData.author}
          maxUploadMb={loaderData.maxUploadMb}
          actionData={actionData}
          writerId={loaderData.writerId}
          draft={loaderData.draft ? { id: loaderData.draft.id, photo: loaderData.draft.photo, updatedAt: loaderData.draft.updatedAt } : null}
          defaults={loaderData.draft?.values}
          // A new draft for the same screen: the canvas starts again with the writer's choice.
          key={loaderData.draft?.id ?? 'new'}
        />
      </WhileSuspended>
    </Page>
  );
}
