import { data, redirect } from 'react-router';
import { Page } from '~/components/page';
import { ArchiveUpload, ReviewForm, RunOutcome, RunStatus, statusTextOf, usePollWhileWorking } from '~/features/imports/components/import-run';
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

/**
 * The writer's "Import posts" screen (docs/product.md#importing-from-another-platform): choose an
 * archive, check the category mapping the scan proposes, watch the progress bar, read the report.
 */
export default function ProfileImport({ loaderData: { run, maxUploadMb }, actionData }: Route.ComponentProps) {
  usePollWhileWorking(run);
  return (
    <Page title={IMPORT_TEXTS.title} wide={false}>
      <p className="mt-2 opacity-90">{IMPORT_TEXTS.intro}</p>
      {actionData?.formError ? (
        <div role="alert" className="alert alert-error mt-4">
          {actionData.formError}
        </div>
      ) : null}
      {!run || run.status === 'done' || run.status === 'failed' ? <ArchiveUpload maxUploadMb={maxUploadMb} /> : null}
      {run ? (
        <section className="mt-8" aria-labelledby="import-run">
          <RunStatus run={run} statusText={statusTextOf(run, IMPORT_TEXTS.status)} />
          <ReviewForm run={run} />
          <RunOutcome run={run} />
        </section>
      ) : null}
    </Page>
  );
}
