import { useEffect } from 'react';
import { data, Form, redirect, useNavigation, useRevalidator } from 'react-router';
import { Page } from '~/components/page';
import { BLOG_CATEGORIES } from '~/features/blogs/blogs.schema';
import { submitImportForm } from '~/features/imports/imports-form.server';
import { getImportRun, listMyImports } from '~/features/imports/import-runs.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { IMPORT_TEXTS } from '~/lib/texts/imports';
import type { Route } from './+types/profile-import';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${IMPORT_TEXTS.title} · ${site.siteName}`, description: IMPORT_TEXTS.intro, path: '/profile/import', index: false });
};

export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  const runId = new URL(request.url).searchParams.get('run');
  const runs = await listMyImports(context.service);
  const run = runId ? await getImportRun(context.service, runId) : (runs[0] ?? null);
  return { run, maxUploadMb: context.deps.config.MAX_UPLOAD_MB };
}

export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [RATE_LIMITS.upload], input: 'id' }, async ({ context, request }, { ctx }) => {
  const outcome = await submitImportForm(ctx, context.deps.config, request);
  if (!outcome.ok) return data({ formError: outcome.message }, { status: outcome.status });
  return redirect(`/profile/import?run=${outcome.runId}`);
});

const WORKING = new Set(['scanning', 'queued', 'running']);

/**
 * The writer's "Import posts" screen (docs/product.md#importing-from-another-platform): choose an
 * archive, check the category mapping the scan proposes, watch the progress bar, read the report.
 */
export default function ProfileImport({ loaderData: { run, maxUploadMb }, actionData }: Route.ComponentProps) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const working = run !== null && WORKING.has(run.status);
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => revalidator.state === 'idle' && void revalidator.revalidate(), 1500);
    return () => clearInterval(timer);
  }, [working, revalidator]);
  const percent = run && run.total > 0 ? Math.floor((run.done / run.total) * 100) : 0;
  return (
    <Page title={IMPORT_TEXTS.title} wide={false}>
      <p className="mt-2 opacity-90">{IMPORT_TEXTS.intro}</p>
      {actionData?.formError ? (
        <div role="alert" className="alert alert-error mt-4">
          {actionData.formError}
        </div>
      ) : null}
      {!run || run.status === 'done' || run.status === 'failed' ? (
        <Form method="post" encType="multipart/form-data" className="mt-6 flex flex-col gap-3">
          <input type="hidden" name="intent" value="upload" />
          <label className="flex flex-col gap-1">
            <span className="font-semibold">{IMPORT_TEXTS.archiveLabel}</span>
            <input type="file" name="archive" required accept=".zip,.json,.xml,application/zip,application/json,application/xml,text/xml" className="file-input file-input-bordered w-full" />
            <span className="text-sm opacity-80">{IMPORT_TEXTS.archiveHint(maxUploadMb)}</span>
          </label>
          <button type="submit" className="btn btn-primary self-start" disabled={navigation.state !== 'idle'}>
            {IMPORT_TEXTS.upload}
          </button>
        </Form>
      ) : null}
      {run ? (
        <section className="mt-8" aria-labelledby="import-run">
          <h2 id="import-run" className="text-xl font-semibold">
            {run.fileName}
          </h2>
          <p className="mt-1" data-testid="import-status">
            {IMPORT_TEXTS.status[run.status]}
          </p>
          {working || run.status === 'done' ? (
            <div className="mt-3">
              <progress className="progress progress-primary w-full" value={run.done} max={Math.max(1, run.total)} aria-label={IMPORT_TEXTS.progressLabel} data-testid="import-progress" />
              <p className="text-sm opacity-80">{IMPORT_TEXTS.progress(run.done, run.total, percent)}</p>
            </div>
          ) : null}
          {run.status === 'review' && run.scan ? (
            <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col gap-3">
              <input type="hidden" name="intent" value="confirm" />
              <input type="hidden" name="runId" value={run.id} />
              <p>{IMPORT_TEXTS.found(run.scan.source, run.scan.posts, run.scan.subscribers)}</p>
              {Object.keys(run.scan.categoryMapping).length > 0 ? (
                <fieldset className="flex flex-col gap-2">
                  <legend className="font-semibold">{IMPORT_TEXTS.mappingLegend}</legend>
                  {Object.entries(run.scan.categoryMapping).map(([name, category]) => (
                    <label key={name} className="flex flex-wrap items-center gap-2">
                      <span className="min-w-40">{name}</span>
                      <select name={`category:${name}`} defaultValue={category} className="select select-bordered">
                        {BLOG_CATEGORIES.map((c) => (
                          <option key={c} value={c}>
                            {c}
                          </option>
                        ))}
                      </select>
                    </label>
                  ))}
                </fieldset>
              ) : null}
              <button type="submit" className="btn btn-primary self-start">
                {IMPORT_TEXTS.confirm}
              </button>
            </Form>
          ) : null}
          {run.status === 'failed' ? (
            <div role="alert" className="alert alert-error mt-4">
              {run.error}
            </div>
          ) : null}
          {run.status === 'done' && run.report ? (
            <div className="mt-4" data-testid="import-report">
              <p>{IMPORT_TEXTS.reportLine(run.report)}</p>
              {run.report.skipped.length > 0 ? (
                <details className="mt-3">
                  <summary>{IMPORT_TEXTS.skippedSummary(run.report.skipped.length)}</summary>
                  <ul className="mt-2 list-disc pl-6">
                    {run.report.skipped.slice(0, 500).map((s, i) => (
                      <li key={i}>
                        {s.item}: {s.reason}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </div>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
