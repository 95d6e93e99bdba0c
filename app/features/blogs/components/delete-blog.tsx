import { type MouseEvent, useRef } from 'react';
import { Form } from 'react-router';
import { useFeedback } from '~/components/feedback';
import { MESSAGES } from '~/lib/texts/messages';

/**
 * The owner's Delete (docs/product.md#deleting). Without JavaScript the disclosure itself is the
 * confirmation step; with it, the site's confirmation dialog asks first.
 */
export function DeleteBlog() {
  const { dialog } = useFeedback();
  const formRef = useRef<HTMLFormElement>(null);

  async function onOpen(event: MouseEvent) {
    event.preventDefault();
    const confirmed = await dialog({
      title: MESSAGES.deleteConfirmTitle,
      text: MESSAGES.deleteConfirmText,
      kind: 'warning',
      confirmText: MESSAGES.deleteConfirmButton,
      cancelText: 'Cancel',
    });
    if (confirmed) formRef.current?.requestSubmit();
  }

  return (
    <details className="dropdown" data-testid="delete-blog">
      <summary className="btn btn-outline btn-error" onClick={onOpen}>
        {MESSAGES.deleteBlog}
      </summary>
      <div className="dropdown-content z-10 mt-2 w-72 rounded-box bg-base-100 p-4 shadow-lg ring-1 ring-base-300">
        <p className="font-semibold">{MESSAGES.deleteConfirmTitle}</p>
        <p className="mt-1 text-sm">{MESSAGES.deleteConfirmText}</p>
        <Form method="post" ref={formRef} className="mt-3">
          <input type="hidden" name="intent" value="delete" />
          <button type="submit" className="btn btn-error btn-sm">{MESSAGES.deleteConfirmButton}</button>
        </Form>
      </div>
    </details>
  );
}
