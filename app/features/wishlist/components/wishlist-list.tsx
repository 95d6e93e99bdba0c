import { type FormEvent, useState } from 'react';
import { Form, Link, useRevalidator } from 'react-router';
import { BlogPhoto } from '~/features/blogs/components/blog-photo';
import { useFeedback } from '~/components/feedback';
import { DialogBox } from '~/components/dialog-box';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { MESSAGES } from '~/lib/texts/messages';
import type { WishlistItemJson, WishlistPageItem } from '../wishlist.presenter';

/** The confirmation (docs/product.md#messages), for the modal (JS) and for the page shown without JS. */
export const DELETE_CONFIRM = {
  title: MESSAGES.deleteConfirmTitle,
  text: MESSAGES.deleteConfirmText,
  confirmText: MESSAGES.deleteConfirmButton,
  cancelText: 'Cancel',
} as const;

const UNDO = 'Undo';

async function deleteItem(id: string): Promise<boolean> {
  try {
    const res = await fetch(`/api/wishlist/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (!res.ok) throw new Error(`wishlist delete answered ${res.status}`);
    const body = (await res.json()) as { deletedCount?: number };
    return (body.deletedCount ?? 0) > 0;
  } catch (error) {
    console.error(error);
    return false;
  }
}

/** Puts a removed item back (the 'Deleted!' dialog's Undo): the same add the blog's card makes. */
async function restoreItem(item: WishlistItemJson): Promise<boolean> {
  const { blogId, title, photo, email, category, description } = item;
  const res = await fetch('/api/wishlist', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(item.likeCount === undefined ? { blogId, title, photo, email, category, description, createdAt: new Date().toISOString() } : { blogId, title, photo, email, category, description, likeCount: item.likeCount }),
  });
  return res.ok || res.status === 409;
}

function RemoveButton({ item, page }: { item: WishlistItemJson; page: number }) {
  const { dialog, toast } = useFeedback();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);

  // With JavaScript: the product's confirmation dialog, then the removal; the list reloads when
  // something was deleted (docs/product.md#wishlist-removal), and the 'Deleted!' dialog offers an Undo.
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!(await dialog({ ...DELETE_CONFIRM, kind: 'warning' }))) return;
    setBusy(true);
    const deleted = await deleteItem(item._id);
    setBusy(false);
    if (!deleted) {
      void dialog({ title: MESSAGES.deleteErrorTitle, text: MESSAGES.deleteErrorText, kind: 'error', timer: FEEDBACK_MS.other });
      return;
    }
    await revalidator.revalidate();
    void dialog({
      title: MESSAGES.deletedTitle,
      text: MESSAGES.deletedText,
      kind: 'success',
      timer: FEEDBACK_MS.success,
      secondary: {
        text: UNDO,
        onClick: () =>
          void restoreItem(item)
            .then((restored) => (restored ? revalidator.revalidate() : toast({ text: MESSAGES.serverError, kind: 'error' })))
            .catch((error: unknown) => console.error(error)),
      },
    });
  }

  // Without JavaScript the button asks the page for its confirmation dialog (?remove=id).
  return (
    <form method="get" onSubmit={onSubmit}>
      <input type="hidden" name="remove" value={item._id} />
      {page > 1 ? <input type="hidden" name="page" value={page} /> : null}
      <button type="submit" className="btn btn-outline btn-error btn-sm" disabled={busy} aria-label={`Remove ${item.title}`}>
        <svg className="h-4 w-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
          <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
        </svg>
        Remove
      </button>
    </form>
  );
}

/**
 * The same confirmation for visitors without JavaScript: the site's dialog, rendered open by the
 * server (a daisyUI modal over the list). Cancel is a link back to the list, the safe answer first.
 */
export function ConfirmRemoval({ item, page }: { item: WishlistItemJson; page: number }) {
  const back = page > 1 ? `?page=${page}` : '.';
  return (
    <dialog open className="modal modal-bottom sm:modal-middle" aria-labelledby="confirm-title" aria-describedby="confirm-text" data-testid="confirm-removal">
      <DialogBox
        labelId="confirm-title"
        textId="confirm-text"
        kind="warning"
        title={DELETE_CONFIRM.title}
        text={DELETE_CONFIRM.text}
        detail={item.title}
        actions={
          <>
            <Link to={back} className="btn" autoFocus>{DELETE_CONFIRM.cancelText}</Link>
            <Form method="post" replace>
              <input type="hidden" name="id" value={item._id} />
              <input type="hidden" name="page" value={page} />
              <button type="submit" className="btn btn-error">{DELETE_CONFIRM.confirmText}</button>
            </Form>
          </>
        }
      />
    </dialog>
  );
}

/** The wishlist rows (docs/product.md#wishlist): photo, title, description, a details link and a remove button. */
export function WishlistList({ items, page }: { items: WishlistPageItem[]; page: number }) {
  return (
    <ul className="mt-6 divide-y divide-base-300 rounded-box bg-base-200 ring-1 ring-base-300" data-testid="wishlist-items">
      {items.map((item) => (
        <li key={item._id} className="flex gap-4 p-4" data-testid="wishlist-item">
          {item.photo ? (
            <BlogPhoto src={item.photo} position={item.photo_position} sizes="(min-width: 640px) 160px, 112px" className="h-20 w-28 shrink-0 rounded-box object-cover sm:h-24 sm:w-40" />
          ) : (
            <div className="h-20 w-28 shrink-0 rounded-box bg-base-300 sm:h-24 sm:w-40" aria-hidden="true" />
          )}
          <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <h2 className="text-lg font-bold leading-snug">{item.title}</h2>
              <p className="mt-1 line-clamp-2 text-sm opacity-85">{item.description}</p>
              <span className="badge badge-outline badge-sm mt-2">{item.category}</span>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <Link to={item.blogPath} className="btn btn-primary btn-sm" aria-label={`Details: ${item.title}`}>Details</Link>
              <RemoveButton item={item} page={page} />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Previous / next pages as plain links, so they work without JavaScript. */
export function WishlistPager({ page, pages }: { page: number; pages: number }) {
  if (pages <= 1) return null;
  const href = (n: number) => (n > 1 ? `?page=${n}` : '.');
  return (
    <nav aria-label="Wishlist pages" className="join mt-6 flex justify-center">
      {page > 1 ? <Link to={href(page - 1)} className="btn join-item" rel="prev">« Previous</Link> : <span className="btn btn-disabled join-item" aria-disabled="true">« Previous</span>}
      <span className="btn join-item pointer-events-none" aria-current="page">Page {page} of {pages}</span>
      {page < pages ? <Link to={href(page + 1)} className="btn join-item" rel="next">Next »</Link> : <span className="btn btn-disabled join-item" aria-disabled="true">Next »</span>}
    </nav>
  );
}
