import { redirect } from 'react-router';
import { FollowFormSchema } from '~/features/follows/follows.schema';
import { followWriter, unfollowWriter } from '~/features/follows/follows.service.server';
import { backWithRefusal } from '~/lib/page-errors.server';
import { safeRedirectPath } from '~/lib/session.server';
import type { Route } from './+types/follow';

/** The follow button's form: follows or unfollows, then goes back where it was pressed. */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(String(form.get('redirectTo') ?? ''), '/following');
  if (!context.user) return redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  const parsed = FollowFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return redirect(back);
  try {
    if (parsed.data.intent === 'unfollow') await unfollowWriter(context.service, parsed.data.writerId);
    else await followWriter(context.service, parsed.data.writerId);
    return redirect(back);
  } catch (error) {
    return backWithRefusal(error, back);
  }
}

export function loader() {
  return redirect('/following');
}
