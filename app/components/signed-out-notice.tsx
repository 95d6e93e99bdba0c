import { MESSAGES } from '~/lib/texts/messages';

/**
 * Under a screen's failure message when its form was sent after the session ended: signing in
 * happens in a new tab (returning to this page there), so the typed text here stays put.
 */
export function SignedOutNotice({ signIn }: { signIn: string }) {
  return (
    <span data-testid="signed-out-notice">
      {MESSAGES.sessionEnded}{' '}
      <a href={signIn} target="_blank" rel="noopener" className="link font-semibold">
        {MESSAGES.signInAgain}
      </a>{' '}
      {MESSAGES.signInAgainThen}
    </span>
  );
}
