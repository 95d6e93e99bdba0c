import { redirect } from 'react-router';
import { REPORT_RATE_LIMIT, ReportSchema } from '~/features/moderation/moderation.schema';
import { reportContent } from '~/features/moderation/moderation.service.server';
import { isAppError } from '~/lib/errors';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import { requireUser, safeRedirectPath } from '~/lib/session.server';
import { consumeRateLimit } from '#server/middleware/rate-limit.server';
import type { Route } from './+types/report';

/** The Report form's target (issue 19): files the report, then back to the page it came from. */
export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const back = safeRedirectPath(String(form.get('returnTo') ?? ''), '/');
  requireUser(context, request);
  const answer = (kind: 'success' | 'error', text: string) => redirect(back, { headers: withFlash({ type: 'toast', kind, text }) });
  const parsed = ReportSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return answer('error', parsed.error.issues[0]!.message);
  const limit = await consumeRateLimit(context.deps.rateLimits, REPORT_RATE_LIMIT, context.clientIp, context.service.log);
  if (!limit.allowed) return answer('error', MESSAGES.tooManyRequests);
  try {
    await reportContent(context.service, parsed.data);
  } catch (error) {
    if (isAppError(error)) return answer('error', error.message);
    throw error;
  }
  return answer('success', MESSAGES.reportSent);
}

export function loader() {
  return redirect('/');
}
