import { redirect } from 'react-router';
import { DraftIdSchema } from '~/features/blogs/drafts.schema';
import { cancelSchedule } from '~/features/blogs/drafts.service.server';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { defineAction } from '~/lib/page/page-action.server';
import { errorPage } from '~/lib/page/page-errors.server';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/draft-schedule';

/** A scheduled post's schedule, cancelled from the profile: it is a draft again (docs/decisions/070). */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: DraftIdSchema },
  async ({ params }, { ctx, input }) => {
    const id = input.safeParse({ id: params.id });
    if (!id.success) throw redirect('/profile#drafts');
    try {
      await cancelSchedule(ctx, id.data.id);
    } catch (error) {
      errorPage(error);
    }
    return redirect('/profile#drafts', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.scheduleCancelled, duration: FEEDBACK_MS.success }) });
  },
);

export function loader() {
  throw redirect('/profile#drafts');
}
