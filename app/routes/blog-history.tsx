import { data, Form, Link, redirect } from 'react-router';
import { z } from 'zod';
import { LocalTime } from '~/components/local-format';
import { Page } from '~/components/page';
import { BlogIdSchema } from '~/features/blogs/blogs.schema';
import { compareRevisions, listRevisions, restoreRevision } from '~/features/blogs/revisions.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { defineAction } from '~/lib/page/page-action.server';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { pageTitle } from '~/lib/page/seo';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/blog-history';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'History') }, { name: 'robots', content: 'noindex' }];

const FIELD_LABELS = { title: 'Title', short_description: 'Short description', long_description: 'Long description', details: 'Details' } as const;

/** A post's versions for its writer (docs/decisions/070): every save, two compared word by word, one restored. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  const search = new URL(request.url).searchParams;
  try {
    const history = await listRevisions(context.service, params.id);
    const [a, b] = [search.get('a'), search.get('b')];
    const comparison = a && b && a !== b ? await compareRevisions(context.service, params.id, a, b) : null;
    return { ...history, comparison };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.blogWrite, RATE_LIMITS.upload], input: z.object({ blog: BlogIdSchema, revision: BlogIdSchema }) },
  async ({ request, params }, { ctx, input }) => {
    const form = await request.formData();
    const parsed = input.safeParse({ blog: params.id, revision: form.get('revision') });
    if (!parsed.success) return data({ error: MESSAGES.revisionNotFound }, { status: 400 });
    let restored: { path: string };
    try {
      restored = await restoreRevision(ctx, parsed.data.blog, parsed.data.revision);
    } catch (error) {
      const refused = pageRefusal(error);
      return data({ error: refused.message }, { status: refused.status });
    }
    return redirect(restored.path, { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.revisionRestored, duration: FEEDBACK_MS.success }) });
  },
);

export default function BlogHistory({ loaderData, actionData }: Route.ComponentProps) {
  const { title, path, revisions, comparison } = loaderData;
  return (
    <Page title="History">
      <div className="reading-column px-0">
        <p className="mt-2 opacity-85">
          Every save of <Link to={path} className="link font-semibold">{title}</Link>, newest first. Pick two to compare, or restore one: restoring is a save, so the version you leave stays here too.
        </p>
        {actionData?.error ? <p role="alert" className="alert alert-error mt-4">{actionData.error}</p> : null}
        <Form method="get" className="mt-6" data-testid="revisions">
          <table className="table">
            <thead>
              <tr>
                <th scope="col" className="text-base-content">Older</th>
                <th scope="col" className="text-base-content">Newer</th>
                <th scope="col" className="text-base-content">Version</th>
                <th scope="col" className="text-base-content">Title</th>
                <th scope="col" className="text-base-content"><span className="sr-only">Restore</span></th>
              </tr>
            </thead>
            <tbody>
              {revisions.map((revision, index) => (
                <tr key={revision.id} data-testid="revision">
                  <td><input type="radio" name="a" value={revision.id} defaultChecked={comparison ? comparison.older.id === revision.id : index === 1} aria-label={`Compare from version ${revisions.length - index}`} className="radio radio-sm" /></td>
                  <td><input type="radio" name="b" value={revision.id} defaultChecked={comparison ? comparison.newer.id === revision.id : index === 0} aria-label={`Compare to version ${revisions.length - index}`} className="radio radio-sm" /></td>
                  <td className="text-sm">
                    <span className="font-semibold">{revisions.length - index}</span> · <LocalTime iso={revision.createdAt} withTime />
                    {index === 0 ? <span className="badge badge-sm ml-2">current</span> : null}
                  </td>
                  <td className="font-serif">{revision.title}</td>
                  <td>
                    {index > 0 ? (
                      <button type="submit" formMethod="post" name="revision" value={revision.id} className="btn btn-xs btn-outline whitespace-nowrap">
                        Restore
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {revisions.length > 1 ? <button type="submit" className="btn btn-sm btn-primary mt-4">Compare</button> : null}
        </Form>

        {comparison ? (
          <section className="mt-8" aria-labelledby="comparison-heading" data-testid="comparison">
            <h2 id="comparison-heading" className="text-xl font-bold">
              <LocalTime iso={comparison.older.createdAt} withTime /> → <LocalTime iso={comparison.newer.createdAt} withTime />
            </h2>
            <p className="mt-1 text-sm opacity-80">
              <del className="diff-removed">Removed</del> and <ins className="diff-added">added</ins> words.{comparison.photoChanged ? ' The image changed.' : ''}
            </p>
            {comparison.fields.map((field) => (
              <div key={field.field} className="mt-5">
                <h3 className="font-semibold">{FIELD_LABELS[field.field]}{field.changed ? '' : ' (unchanged)'}</h3>
                {field.changed ? (
                  <p className="mt-1 whitespace-pre-wrap rounded-box bg-base-200 p-4 font-serif leading-relaxed" data-testid={`diff-${field.field}`}>
                    {field.parts.map((part, i) =>
                      part.added ? <ins key={i} className="diff-added">{part.value}</ins> : part.removed ? <del key={i} className="diff-removed">{part.value}</del> : <span key={i}>{part.value}</span>,
                    )}
                  </p>
                ) : null}
              </div>
            ))}
          </section>
        ) : null}
      </div>
    </Page>
  );
}
