import { Form } from 'react-router';
import { REMOTE_FOLLOWING_TEXTS as T } from '~/lib/texts/remote-following';

/** Follow an account on another server by its handle or profile address (docs/decisions/081). */
export function FollowRemoteForm() {
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-2" data-testid="follow-remote">
      <input type="hidden" name="intent" value="follow-remote" />
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        {T.accountLabel}
        <input name="account" required minLength={3} maxLength={300} className="input input-bordered w-full" placeholder={T.accountPlaceholder} autoComplete="off" spellCheck={false} />
      </label>
      <button type="submit" className="btn btn-primary">
        {T.followButton}
      </button>
    </Form>
  );
}
