import { useId } from 'react';
import { Form, useLocation } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import { REPORT_DETAILS_MAX, REPORT_REASONS } from '../moderation.constants';

export interface ReportButtonProps {
  targetType: 'blog' | 'comment' | 'user';
  targetId: string;
  /** Names what is reported, for screen readers ("Report comment by Ada"). */
  label: string;
}

/**
 * Report a blog, comment or author: a disclosure (works before JavaScript loads) holding a
 * short form that posts to /report, which returns here with a message.
 */
export function ReportButton({ targetType, targetId, label }: ReportButtonProps) {
  const id = useId();
  const location = useLocation();
  return (
    <details className="dropdown dropdown-end" data-testid={`report-${targetType}`}>
      <summary className="btn btn-ghost btn-xs" aria-label={label}>
        {MESSAGES.report}
      </summary>
      <Form method="post" action="/report" className="dropdown-content z-10 mt-2 flex w-72 max-w-[90vw] flex-col gap-2 rounded-box border border-base-300 bg-base-100 p-4 shadow-lg">
        <p className="font-semibold">{MESSAGES.reportHeading}</p>
        <input type="hidden" name="targetType" value={targetType} />
        <input type="hidden" name="targetId" value={targetId} />
        <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
        <label htmlFor={`${id}-reason`} className="text-sm font-semibold">{MESSAGES.reportReasonLabel}</label>
        <select id={`${id}-reason`} name="reason" className="select select-sm w-full" required defaultValue={REPORT_REASONS[0]}>
          {REPORT_REASONS.map((reason) => (
            <option key={reason} value={reason}>{reason}</option>
          ))}
        </select>
        <label htmlFor={`${id}-details`} className="text-sm font-semibold">{MESSAGES.reportDetailsLabel}</label>
        <textarea id={`${id}-details`} name="details" rows={2} maxLength={REPORT_DETAILS_MAX} className="textarea textarea-sm w-full" />
        <button type="submit" className="btn btn-primary btn-sm">{MESSAGES.sendReport}</button>
      </Form>
    </details>
  );
}
