import { redirect } from 'react-router';
import { ReportSchema } from '~/features/moderation/moderation.schema';
import { reportContent } from '~/features/moderation/moderation.service.server';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import { pageRefusal } from '~/lib/page-errors.server';
import { safeRedirectPath } from '~/lib/session.server';
import type { Route } from './+types/report';
import { RATE_LIMITS } from '~/lib/rate-limits';
import { defineAction } from '~/lib/page-action.server';

/** The Report form's target (issue 19): files the report, then back to the page it came from. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.report], input: ReportSchema },
  async ({ request }, { ctx, input }) => {
    const form = await request.formData();
    const back = safeRedirectPath(String(form.get('returnTo') ?? ''), '/');
    const answer = (kind: 'success' | 'error', text: string) => redirect(back, { headers: withFlash({ type: 'toast', kind, text }) });
    const parsed = input.safeParse(Object.fromEntries(form));
    if (!parsed.success) return answer('error', parsed.error.issues[0]!.message);
    try {
      await reportContent(ctx, parsed.data);
    } catch (error) {
      return answer('error', pageRefusal(error).message);
    }
    return answer('success', MESSAGES.reportSent);
  },
);

export function loader() {
  return redirect('/');
}
