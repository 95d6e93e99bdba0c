import { LocalTime } from '~/components/local-format';
import { MESSAGES } from '~/lib/texts/messages';

/** A suspension in force, as the suspended account reads it: until when (null: for good) and why. */
export interface Suspension {
  until: string | null;
  reason: string;
}

/**
 * What a suspended account sees on a screen where it would write (docs/decisions/061): why, and
 * until when, before it types anything; the form below is disabled instead of failing on save.
 */
export function SuspendedBanner({ suspension }: { suspension: Suspension }) {
  return (
    <div role="note" className="alert alert-warning mt-4 mb-6 flex flex-col items-start gap-1 text-left" data-testid="suspended-banner">
      <strong>
        {suspension.until ? (
          <>
            {MESSAGES.suspendedUntilLead} <LocalTime iso={suspension.until} withTime />.
          </>
        ) : (
          MESSAGES.suspendedForGood
        )}
      </strong>
      <span>{MESSAGES.suspendedWhatStill}</span>
      {suspension.reason ? <span className="break-words">{MESSAGES.removedReason(suspension.reason)}</span> : null}
    </div>
  );
}
