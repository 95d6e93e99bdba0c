import { useEffect, useState } from 'react';
import { MESSAGES } from '~/lib/texts/messages';
import { type PostEndProps, ShareButtons } from './post-end';

/** How long after publishing the writer is offered the panel on her post. */
const FRESH_MS = 24 * 3600_000;

/**
 * "Published — share it" (docs/decisions/070): on her own post's page, for a day after it went
 * out, the writer gets Copy link and, where the device has one, its share sheet (the end of a
 * post's own buttons). Shown only after hydration (it depends on the clock); dismissed for the visit.
 */
export function PublishedPanel({ id, blog, createdAt }: { id: string; blog: PostEndProps['blog']; createdAt: string }) {
  const [shown, setShown] = useState(false);
  const dismissedKey = `published-panel:${id}`;
  useEffect(() => setShown(Date.now() - Date.parse(createdAt) < FRESH_MS && !sessionStorage.getItem(dismissedKey)), [createdAt, dismissedKey]);
  if (!shown) return null;
  return (
    <section className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-box border border-base-300 bg-base-200 p-4" aria-labelledby="published-heading" data-testid="published-panel">
      <h2 id="published-heading" className="font-semibold">{MESSAGES.publishedShareTitle}</h2>
      <div className="flex flex-wrap items-center gap-2">
        <ShareButtons blog={blog} />
        <button
          type="button"
          className="btn btn-sm btn-ghost"
          onClick={() => {
            sessionStorage.setItem(dismissedKey, '1');
            setShown(false);
          }}
        >
          Dismiss
        </button>
      </div>
    </section>
  );
}
