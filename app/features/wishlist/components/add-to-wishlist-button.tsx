import { type FormEvent, useEffect, useState } from 'react';
import { useLocation, useNavigate, useRouteLoaderData } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { LOG_IN, loginPath } from '~/lib/page/login-path';
import { MESSAGES } from '~/lib/texts/messages';
import type { WishlistSource } from '../wishlist.schema';

export interface WishlistBlog {
  _id: string;
  title: string;
  photo: string | null;
  category: string;
  short_description: string;
  likes?: number;
}

export interface AddToWishlistButtonProps {
  blog: WishlistBlog;
  /** Which screen it sits on: the home page and All blogs send different payloads and messages (docs/product.md#the-api, #messages). */
  variant: WishlistSource;
  signedIn: boolean;
  inWishlist: boolean;
  className?: string;
}

/** The address the no-JavaScript form posts to (app/routes/wishlist-add.tsx). */
export const WISHLIST_ADD_PATH = '/wishlist/add';

/** The POST /wishlist payload of each screen (docs/product.md#the-api); the server takes the owner from the session, not from `email`. */
function payloadFor(blog: WishlistBlog, variant: WishlistSource, email: string) {
  const common = { blogId: blog._id, title: blog.title, photo: blog.photo, email, category: blog.category, description: blog.short_description };
  return variant === 'home' ? { ...common, createdAt: new Date().toISOString() } : { ...common, likeCount: blog.likes ?? 0 };
}

/**
 * 'Add to Wishlist' for the home page and All blogs (docs/product.md#wishlist-add). A plain form that works
 * without JavaScript (the server answers with a flash message); with JavaScript it checks the
 * loaded wishlist first and sends nothing for a duplicate, then posts to the JSON API.
 */
function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" aria-hidden="true" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
      <path d="M6 3h12v18l-6-4.5L6 21z" />
    </svg>
  );
}

export function AddToWishlistButton({ blog, variant, signedIn, inWishlist, className }: AddToWishlistButtonProps) {
  const { toast, dialog } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const root = useRouteLoaderData('root') as { user?: { email: string } | null } | undefined;
  const [added, setAdded] = useState(inWishlist);
  const [busy, setBusy] = useState(false);
  useEffect(() => setAdded(inWishlist), [inWishlist]);

  const alreadyAdded = () => void dialog({ title: MESSAGES.alreadyAddedTitle, text: MESSAGES.alreadyAddedText, kind: 'info' });
  const loginRequired = () =>
    void dialog({ title: MESSAGES.loginRequired, text: MESSAGES.loginToWishlist, kind: 'warning', action: { text: LOG_IN, href: loginPath(location.pathname + location.search) } });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!signedIn) return loginRequired();
    if (added) return alreadyAdded();
    setBusy(true);
    try {
      const res = await fetch('/api/wishlist', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payloadFor(blog, variant, root?.user?.email ?? '')),
      });
      if (res.ok) {
        setAdded(true);
        if (variant === 'home') {
          toast({ text: MESSAGES.homeWishlistSuccess, kind: 'success', duration: FEEDBACK_MS.success });
          setTimeout(() => navigate('/wishlist'), FEEDBACK_MS.success);
        } else {
          toast({ text: MESSAGES.wishlistAdded, kind: 'success', duration: FEEDBACK_MS.success });
        }
      } else if (res.status === 409) {
        setAdded(true);
        alreadyAdded();
      } else if (res.status === 401) {
        loginRequired();
      } else {
        throw new Error(`wishlist add answered ${res.status}`);
      }
    } catch (error) {
      // Wishlist errors are logged (docs/product.md#messages); we also say something rather than fail silently.
      console.error(error);
      toast({ text: MESSAGES.serverError, kind: 'error' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action={WISHLIST_ADD_PATH} onSubmit={onSubmit}>
      <input type="hidden" name="blogId" value={blog._id} />
      <input type="hidden" name="variant" value={variant} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      {/* Saved shows as a filled bookmark and says so; the name keeps the product's text. */}
      <button
        type="submit"
        className={className ?? `btn btn-sm gap-1 ${added ? 'btn-primary' : 'btn-outline btn-primary'}`}
        disabled={busy}
        aria-label={added ? `Saved: ${MESSAGES.addToWishlist}: ${blog.title}` : `${MESSAGES.addToWishlist}: ${blog.title}`}
        data-saved={added}
      >
        <BookmarkIcon filled={added} />
        {added ? 'Saved' : MESSAGES.addToWishlist}
      </button>
    </form>
  );
}
