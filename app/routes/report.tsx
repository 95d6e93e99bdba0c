import { redirect } from 'react-router';
import { ReportSchema } from '~/features/moderation/moderation.schema';
import { reportContent } from '~/features/moderation/moderation.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageRefusal } from '~/lib/page/page-errors.server';
import { safeRedirectPath } from '~/lib/page/session.server';
import type { Route } from './+types/report';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

/** The Report form's target (docs/decisions/028): files the report, then back to the page it came from. */
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
