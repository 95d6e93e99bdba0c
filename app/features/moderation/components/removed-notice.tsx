import { MESSAGES } from '~/lib/texts/messages';

/** What the author of a blog or comment a moderator removed sees in its place (nobody else sees it). */
export function RemovedNotice({ reason }: { reason: string }) {
  return (
    <div role="note" className="alert alert-warning my-2 flex flex-col items-start gap-1" data-testid="removed-notice">
      <strong>{MESSAGES.removedByModerator}</strong>
      {reason ? <span>{MESSAGES.removedReason(reason)}</span> : null}
    </div>
  );
}

/** What the author of a blog or comment waiting for a moderator sees on it (nobody else sees it; decision 029). */
export function WaitingNotice() {
  return (
    <div role="note" className="alert alert-info my-2 flex flex-col items-start gap-1" data-testid="waiting-notice">
      <strong>{MESSAGES.waitingForModerator}</strong>
      <span>{MESSAGES.waitingForModeratorText}</span>
    </div>
  );
}
