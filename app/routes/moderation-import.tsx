import { useState } from 'react';
import { data, Link, redirect } from 'react-router';
import { useHydrated } from '~/features/home/components/use-motion';
import { ArchiveUpload, ReviewForm, RunOutcome, RunStatus, statusTextOf, usePollWhileWorking } from '~/features/imports/components/import-run';
import { submitImportForm } from '~/features/imports/imports-form.server';
import { getSiteImportRun, listSiteImports } from '~/features/imports/import-runs.service.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';
import { errorPage } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { SITE_IMPORT_TEXTS } from '~/lib/texts/imports';
import { MESSAGES } from '~/lib/texts/messages';
import type { Route } from './+types/moderation-import';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${SITE_IMPORT_TEXTS.title} · ${site.siteName}`, description: SITE_IMPORT_TEXTS.intro, path: '/moderation/import', index: false });
};

/** Admins only (the service checks the role); to anyone else the screen does not exist. */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    const runId = new URL(request.url).searchParams.get('run');
    const runs = await listSiteImports(context.service);
    const run = runId ? await getSiteImportRun(context.service, runId) : (runs[0] ?? null);
    return { run, maxUploadMb: context.deps.config.MAX_UPLOAD_MB };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [RATE_LIMITS.upload], input: 'id' }, async ({ context, request }, { ctx }) => {
  const outcome = await submitImportForm(ctx, context.deps.config, request, 'site');
  if (!outcome.ok) {
    // To anyone but an admin the screen does not exist, its form neither.
    if (outcome.status === 403) throw data(null, { status: 404 });
    return data({ formError: outcome.message }, { status: outcome.status });
  }
  return redirect(`/moderation/import?run=${outcome.runId}`);
});

type Run = NonNullable<Route.ComponentProps['loaderData']['run']>;

/** One source author: where her posts go (an account by its email, a new account, nobody). */
function AuthorChoice({ author }: { author: NonNullable<NonNullable<Run['scan']>['siteAuthors']>[number] }) {
  const id = `author-${author.sourceId.replace(/[^\w-]/g, '_')}`;
  // Without JavaScript both fields show; the email counts only for "an account already here".
  const [choice, setChoice] = useState(author.choice.choice);
  const hydrated = useHydrated();
  return (
    <fieldset className="rounded-box bg-base-200 p-3" data-testid="site-author">
      <legend className="float-left mb-2 w-full font-semibold">{SITE_IMPORT_TEXTS.author(author.name, author.email, author.posts)}</legend>
      <div className="clear-both flex flex-col gap-2">
        <label className="flex flex-wrap items-center gap-2" htmlFor={`${id}-choice`}>
          <span className="min-w-40">{SITE_IMPORT_TEXTS.choiceLabel}</span>
          <select id={`${id}-choice`} name={`author:${author.sourceId}`} value={choice} onChange={(e) => setChoice(e.target.value as typeof choice)} className="select select-bordered">
            <option value="account">{SITE_IMPORT_TEXTS.choices.account}</option>
            <option value="new" disabled={!author.email}>{SITE_IMPORT_TEXTS.choices.new}</option>
            <option value="skip">{SITE_IMPORT_TEXTS.choices.skip}</option>
          </select>
        </label>
        <label className={`flex flex-wrap items-center gap-2${hydrated && choice !== 'account' ? ' hidden' : ''}`} htmlFor={`${id}-email`}>
          <span className="min-w-40">{SITE_IMPORT_TEXTS.emailLabel}</span>
          <input id={`${id}-email`} type="email" name={`authorEmail:${author.sourceId}`} defaultValue={author.choice.choice === 'account' ? author.choice.email : (author.email ?? '')} className="input input-bordered" autoComplete="off" />
        </label>
        {author.email ? null : <p className="text-sm opacity-85">{SITE_IMPORT_TEXTS.noEmail}</p>}
      </div>
    </fieldset>
  );
}

/**
 * The admins' "Import a site" screen (docs/decisions/083): an archive, then each source author's
 * account and the category mapping, then the progress bar and the report.
 */
export default function ModerationImport({ loaderData, actionData }: Route.ComponentProps) {
  const { run, maxUploadMb } = loaderData;
  usePollWhileWorking(run);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 [overflow-wrap:break-word]">
      <p className="text-sm"><Link className="link" to="/moderation">{MESSAGES.moderationHeading}</Link></p>
      <h1 className="mt-2 text-3xl font-bold">{SITE_IMPORT_TEXTS.title}</h1>
      <p className="mt-2 opacity-90">{SITE_IMPORT_TEXTS.intro}</p>
      {actionData?.formError ? (
        <div role="alert" className="alert alert-error mt-4">
          {actionData.formError}
        </div>
      ) : null}
      {!run || run.status === 'done' || run.status === 'failed' ? <ArchiveUpload maxUploadMb={maxUploadMb} hint={SITE_IMPORT_TEXTS.archiveHint(maxUploadMb)} /> : null}
      {run ? (
        <section className="mt-8" aria-labelledby="import-run">
          <RunStatus run={run} statusText={statusTextOf(run, SITE_IMPORT_TEXTS.status)} />
          <ReviewForm run={run}>
            {run.scan?.siteAuthors?.length ? (
              <fieldset className="flex flex-col gap-3">
                <legend className="font-semibold">{SITE_IMPORT_TEXTS.authorsLegend}</legend>
                <p className="text-sm opacity-85">{SITE_IMPORT_TEXTS.newHint}</p>
                {run.scan.siteAuthors.map((author) => (
                  <AuthorChoice key={author.sourceId} author={author} />
                ))}
              </fieldset>
            ) : null}
          </ReviewForm>
          <RunOutcome run={run}>
            {run.report?.authors?.length ? (
              <>
                <h3 className="mt-3 font-semibold">{SITE_IMPORT_TEXTS.reportAuthors}</h3>
                <ul className="mt-1 list-disc pl-6" data-testid="import-authors">
                  {run.report.authors.map((a) => (
                    <li key={a.name}>{SITE_IMPORT_TEXTS.outcome(a)}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </RunOutcome>
        </section>
      ) : null}
    </div>
  );
}
