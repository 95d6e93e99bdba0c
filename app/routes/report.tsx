import { redirect } from 'react-router';
import { ReportSchema } from '~/features/moderation/moderation.schema';
import { reportContent } from '~/features/moderation/moderation.service.server';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import { pageRefusal } from '~/lib/page-errors.server';
import { userOrRedirectToLogin, safeRedirectPath } from '~/lib/session.server';
import type { Route } from './+types/report';

/** The Report form's target (issue 19): files the report, then back to the page it came from. */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(String(form.get('returnTo') ?? ''), '/');
  userOrRedirectToLogin(context, request);
  const answer = (kind: 'success' | 'error', text: string) => redirect(back, { headers: withFlash({ type: 'toast', kind, text }) });
  const parsed = ReportSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return answer('error', parsed.error.issues[0]!.message);
  try {
    await reportContent(context.service, parsed.data);
  } catch (error) {
    return answer('error', pageRefusal(error).message);
  }
  return answer('success', MESSAGES.reportSent);
}

export function loader() {
  return redirect('/');
}
