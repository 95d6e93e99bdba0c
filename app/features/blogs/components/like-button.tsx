import { type FormEvent, useState } from 'react';
import { useLocation } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { LocalNumber } from '~/components/local-format';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { LOG_IN, loginPath } from '~/lib/page/login-path';
import { MESSAGES } from '~/lib/texts/messages';

export interface LikeButtonProps {
  blogId: string;
  likes: number;
  liked: boolean;
  signedIn: boolean;
}

/** The no-JavaScript form posts here (app/routes/blog-like.tsx). */
export const likePath = (blogId: string) => `/blogs/${blogId}/like`;

function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
      <path d="M12 21s-7.5-4.6-9.6-9.2C1 8.6 3 5 6.6 5c2 0 3.4 1.1 4.4 2.6h2C14 6.1 15.4 5 17.4 5 21 5 23 8.6 21.6 11.8 19.5 16.4 12 21 12 21z" />
    </svg>
  );
}

/**
 * Like with its count (docs/product.md#likes): a form that works without JavaScript; with it, one call to
 * the API, a 'Liked successfully!' toast and the count updated in place. A second press unlikes.
 */
export function LikeButton({ blogId, likes, liked, signedIn }: LikeButtonProps) {
  const { toast, dialog } = useFeedback();
  const location = useLocation();
  const [state, setState] = useState({ likes, liked });
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!signedIn) {
      void dialog({ title: MESSAGES.loginRequired, text: MESSAGES.loginToLike, kind: 'warning', action: { text: LOG_IN, href: loginPath(location.pathname + location.search) } });
      return;
    }
    setBusy(true);
    try {
      const res = await fetch(`/api/blogs/liked/${blogId}`, { method: state.liked ? 'DELETE' : 'PATCH' });
      if (!res.ok) throw new Error(`like failed: ${res.status}`);
      const { modifiedCount } = (await res.json()) as { modifiedCount: number };
      if (state.liked) {
        setState((s) => ({ likes: s.likes - modifiedCount, liked: false }));
      } else {
        // docs/product.md#likes: one modification means one more like; 0 means it was already counted.
        setState((s) => ({ likes: s.likes + modifiedCount, liked: true }));
        if (modifiedCount === 1) toast({ text: MESSAGES.likeSuccess, kind: 'success', duration: FEEDBACK_MS.like });
      }
    } catch (error) {
      // Like errors are only logged (docs/product.md#messages).
      console.warn(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action={likePath(blogId)} onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={state.liked ? 'unlike' : 'like'} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        className={`btn btn-sm gap-1 ${state.liked ? 'btn-secondary' : 'btn-outline btn-secondary'}`}
        aria-pressed={state.liked}
        aria-label={`Like (${state.likes} ${state.likes === 1 ? 'like' : 'likes'})`}
        disabled={busy}
        data-testid="like-button"
      >
        <HeartIcon filled={state.liked} />
        <span data-testid="like-count"><LocalNumber value={state.likes} /></span>
      </button>
    </form>
  );
}
