import { Form, Link } from 'react-router';
import { LocalTime } from '~/components/local-format';

export interface DraftListItem {
  id: string;
  blogId: string | null;
  title: string;
  publishAt: string | null;
  updatedAt: string;
}

/**
 * The writer's drafts on her profile (docs/decisions/070): each opens in the canvas (an edit of a
 * published post on its Edit screen); a scheduled one says when, and can be cancelled until then.
 */
export function DraftsList({ drafts }: { drafts: DraftListItem[] }) {
  return (
    <section id="drafts" className="mt-8" aria-labelledby="drafts-heading" data-testid="drafts">
      <div className="flex items-center justify-between gap-2">
        <h2 id="drafts-heading" className="text-xl font-bold">Drafts</h2>
        <Link to="/addBlog?new" className="btn btn-sm btn-outline btn-primary">New post</Link>
      </div>
      {drafts.length === 0 ? (
        <p className="mt-3 opacity-80">No drafts: what you write is kept here as you type.</p>
      ) : (
        <ul className="mt-3 divide-y divide-base-300 rounded-box border border-base-300">
          {drafts.map((draft) => (
            <li key={draft.id} className="flex flex-wrap items-center justify-between gap-2 p-3" data-testid="draft-item">
              <div className="min-w-0">
                <Link to={draft.blogId ? `/updateBlog/${draft.blogId}` : `/addBlog?draft=${draft.id}`} className="link font-semibold">
                  {draft.title || 'Untitled'}
                </Link>
                <p className="text-sm opacity-80">
                  {draft.publishAt ? (
                    <span className="badge badge-sm badge-info mr-2" data-testid="draft-scheduled">Scheduled for <LocalTime iso={draft.publishAt} withTime /></span>
                  ) : draft.blogId ? (
                    <span className="mr-2">Unsaved edit of a published post ·</span>
                  ) : null}
                  Saved <LocalTime iso={draft.updatedAt} withTime />
                </p>
              </div>
              {draft.publishAt ? (
                <Form method="post" action={`/drafts/${draft.id}/schedule`}>
                  <button type="submit" name="intent" value="cancel" className="btn btn-sm btn-ghost">Cancel schedule</button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
