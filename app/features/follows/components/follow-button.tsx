import { Form, useNavigation } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';

/**
 * Follow or unfollow a writer (blog page, and the author page once it exists). A plain form
 * posted to /follow, so it works before JavaScript loads; it comes back to `redirectTo`.
 */
export function FollowButton({ writerId, writerName, following, redirectTo }: { writerId: string; writerName: string; following: boolean; redirectTo: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formAction === '/follow';
  return (
    <Form method="post" action="/follow" className="inline">
      <input type="hidden" name="writerId" value={writerId} />
      <input type="hidden" name="intent" value={following ? 'unfollow' : 'follow'} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className={following ? 'btn btn-sm btn-outline btn-secondary' : 'btn btn-sm btn-secondary'}
        aria-label={`${following ? MESSAGES.unfollow : MESSAGES.follow} ${writerName}`}
        disabled={busy}
        data-testid="follow-button"
      >
        {following ? MESSAGES.unfollow : MESSAGES.follow}
      </button>
    </Form>
  );
}
