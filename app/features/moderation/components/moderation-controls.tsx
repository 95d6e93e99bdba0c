import type { MouseEvent } from 'react';
import { Form, Link } from 'react-router';
import { DialogBox } from '~/components/dialog-box';
import { useFeedback } from '~/components/feedback';
import { MESSAGES } from '~/lib/texts/messages';
import { SUSPEND_PERIODS } from '../moderation.constants';

/** The field every moderation form carries: the reason goes into the audit log. */
export function ReasonField({ id, defaultValue }: { id: string; defaultValue?: string }) {
  return (
    <label className="flex w-full flex-col gap-1 sm:w-auto sm:min-w-64 sm:flex-1">
      <span className="text-sm font-semibold">{MESSAGES.moderationReasonLabel}</span>
      <input id={id} name="reason" required maxLength={500} defaultValue={defaultValue} className="input input-sm w-full" />
    </label>
  );
}

/**
 * Delete asks first (docs/decisions/061): with JavaScript the site's dialog, then the form is sent
 * with `confirmed`; without it the server answers an unconfirmed Delete with the same dialog,
 * rendered open (ConfirmDeleteDialog).
 */
export function DeleteContentButton({ type }: { type: 'blog' | 'comment' }) {
  const { dialog } = useFeedback();
  async function onClick(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const button = event.currentTarget;
    const form = button.form;
    if (!form || !form.reportValidity()) return;
    const confirmed = await dialog({
      title: MESSAGES.deleteContentTitle(type),
      text: MESSAGES.deleteConfirmText,
      kind: 'warning',
      confirmText: MESSAGES.deleteConfirmButton,
      cancelText: 'Cancel',
    });
    if (!confirmed) return;
    const flag = form.elements.namedItem('confirmed');
    if (flag instanceof HTMLInputElement) flag.value = 'yes';
    form.requestSubmit(button);
  }
  return (
    <>
      <input type="hidden" name="confirmed" value="" />
      <button className="btn btn-error btn-sm" name="intent" value="delete" onClick={(event) => void onClick(event)}>
        {MESSAGES.moderationDelete}
      </button>
    </>
  );
}

export interface PendingDelete {
  targetPath: 'blogs' | 'comments';
  targetId: string;
  reason: string;
}

/** The Delete confirmation for a browser without JavaScript: the site's dialog, open, Cancel first. */
export function ConfirmDeleteDialog({ pending, back }: { pending: PendingDelete; back: string }) {
  const type = pending.targetPath === 'blogs' ? 'blog' : 'comment';
  return (
    <dialog open className="modal modal-bottom sm:modal-middle" aria-labelledby="confirm-delete-title" aria-describedby="confirm-delete-text" data-testid="confirm-delete">
      <DialogBox
        labelId="confirm-delete-title"
        textId="confirm-delete-text"
        kind="warning"
        title={MESSAGES.deleteContentTitle(type)}
        text={MESSAGES.deleteConfirmText}
        detail={MESSAGES.removedReason(pending.reason)}
        actions={
          <>
            <Link to={back} className="btn" autoFocus>Cancel</Link>
            <Form method="post" replace>
              <input type="hidden" name="targetPath" value={pending.targetPath} />
              <input type="hidden" name="targetId" value={pending.targetId} />
              <input type="hidden" name="reason" value={pending.reason} />
              <input type="hidden" name="confirmed" value="yes" />
              <button type="submit" className="btn btn-error" name="intent" value="delete">{MESSAGES.deleteConfirmButton}</button>
            </Form>
          </>
        }
      />
    </dialog>
  );
}

/** How long, chosen in so many words (no empty "for good"), and the Suspend button. */
export function SuspendControls({ id }: { id: string }) {
  return (
    <>
      <label className="flex flex-col gap-1">
        <span className="text-sm font-semibold">{MESSAGES.moderationPeriodLabel}</span>
        <select id={id} name="period" className="select select-sm w-36" defaultValue="" data-testid="suspend-period">
          <option value="" disabled>{MESSAGES.moderationPeriodChoose}</option>
          {SUSPEND_PERIODS.map((period) => <option key={period} value={period}>{MESSAGES.moderationPeriod(period)}</option>)}
        </select>
      </label>
      <button className="btn btn-error btn-outline btn-sm" name="intent" value="suspend">{MESSAGES.moderationSuspend}</button>
    </>
  );
}
