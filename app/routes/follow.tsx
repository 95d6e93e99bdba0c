import { redirect } from 'react-router';
import { FollowFormSchema } from '~/features/follows/follows.schema';
import { followWriter, unfollowWriter } from '~/features/follows/follows.service.server';
import { backWithRefusal } from '~/lib/page/page-errors.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import type { Route } from './+types/follow';
import { defineAction } from '~/lib/page/page-action.server';

/** The follow button's form: follows or unfollows, then goes back where it was pressed. */
const backOf = (form: FormData) => safeRedirectPath(String(form.get('redirectTo') ?? ''), '/following');

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: FollowFormSchema, signedOut: async ({ request }) => redirect(`/login?redirectTo=${encodeURIComponent(backOf(await request.formData()))}`) },
  async ({ request }, { ctx, input }) => {
    const form = await request.formData();
    const back = backOf(form);
    const parsed = input.safeParse(Object.fromEntries(form));
    if (!parsed.success) return redirect(back);
    try {
      if (parsed.data.intent === 'unfollow') await unfollowWriter(ctx, parsed.data.writerId);
      else await followWriter(ctx, parsed.data.writerId);
      return redirect(back);
    } catch (error) {
      return backWithRefusal(error, back);
    }
  },
);

export function loader() {
  return redirect('/following');
}
