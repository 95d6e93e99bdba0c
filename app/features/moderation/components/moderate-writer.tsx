import { Form } from 'react-router';
import { LocalTime } from '~/components/local-format';
import { MESSAGES } from '~/lib/texts/messages';
import type { WriterModeration } from '../spam-hold.service.server';
import { ReasonField, SuspendControls } from './moderation-controls';

/** The moderators' part of a writer's page: where the writer stands, and what may be done about it. */
export function ModerateWriter({ writerId, moderation }: { writerId: string; moderation: WriterModeration }) {
  const { suspension, heldUntil } = moderation;
  return (
    <details className="mt-6 rounded-box bg-base-200 p-4" data-testid="moderate-writer" open={Boolean(suspension || heldUntil)}>
      <summary className="cursor-pointer font-semibold">{MESSAGES.moderateWriter}</summary>
      {suspension ? (
        <p className="mt-2 text-sm" data-testid="writer-suspended">
          {MESSAGES.writerSuspended(suspension.until)}{suspension.until ? <> <LocalTime iso={suspension.until} withTime /></> : null}. {MESSAGES.removedReason(suspension.reason)}
        </p>
      ) : null}
      {heldUntil ? <p className="mt-2 text-sm" data-testid="writer-held">{MESSAGES.writerOnHold}: until <LocalTime iso={heldUntil} withTime /></p> : null}
      <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
        <ReasonField id={`reason-${writerId}`} />
        {heldUntil ? <button className="btn btn-success btn-sm" name="intent" value="approve-account">{MESSAGES.approveAccount}</button> : null}
        {suspension ? (
          <button className="btn btn-outline btn-sm" name="intent" value="unsuspend">{MESSAGES.moderationUnsuspend}</button>
        ) : (
          <SuspendControls id={`period-${writerId}`} />
        )}
      </Form>
    </details>
  );
}
