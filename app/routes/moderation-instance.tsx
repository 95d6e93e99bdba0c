import type { ReactNode } from 'react';
import { data, Form, Link, useNavigation } from 'react-router';
import { ExportList } from '~/features/exports/components/export-list';
import { listExports, requestExport } from '~/features/exports/exports.service.server';
import { FormError } from '~/features/users/components/auth-card';
import { AppError } from '~/lib/core/errors';
import { defineAction } from '~/lib/page/page-action.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { LocalTime } from '~/components/local-format';
import { getInstanceOverview } from '~/features/moderation/instance.service.server';
import { SITE_IMPORT_TEXTS } from '~/lib/texts/imports';
import { MESSAGES } from '~/lib/texts/messages';
import { errorPage } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import type { Route } from './+types/moderation-instance';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.instanceHeading} · ${site.siteName}`, description: MESSAGES.instanceHeading, path: '/moderation/instance', index: false });
};

/** Admins only (the service checks the role); to anyone else the screen does not exist. */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    const overview = await getInstanceOverview(context.service, context.deps.config, {
      nodeVersion: process.versions.node,
      uptimeSeconds: process.uptime(),
      viewsBuffered: context.deps.views.buffered,
    });
    const exports = (await listExports(context.service, context.deps.config)).filter((e) => e.scope === 'site');
    return { ...overview, exports };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

/** An admin asks for an export of the whole site (docs/decisions/074); the service checks the role. */
export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [RATE_LIMITS.exportRequest], input: {} }, async ({ context }, { ctx }) => {
  try {
    await requestExport(ctx, context.deps.config, 'site');
    return { started: true, formError: null };
  } catch (error) {
    if (error instanceof AppError && (error.code === 'conflict' || error.code === 'rate_limited')) return data({ started: false, formError: error.message }, error.status);
    errorPage(error, { hideForbidden: true });
  }
});

/** 1536 → "1.5 KB": powers of 1024, one decimal under 10. */
function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** 93784 → "1 d 2 h 3 min": the two largest parts that are not zero. */
function formatDuration(seconds: number): string {
  const parts: [number, string][] = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3_600), 'h'],
    [Math.floor((seconds % 3_600) / 60), 'min'],
    [Math.floor(seconds % 60), 's'],
  ];
  const shown = parts.filter(([n]) => n > 0).slice(0, 2);
  return shown.length ? shown.map(([n, unit]) => `${n} ${unit}`).join(' ') : '0 s';
}

function Figure({ label, testId, wide = false, children }: { label: string; testId: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`rounded-box bg-base-200 p-4${wide ? ' col-span-2 lg:col-span-1' : ''}`}>
      <dt className="text-sm opacity-85">{label}</dt>
      <dd className="mt-1 text-xl font-semibold break-words" data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function Instance({ loaderData, actionData }: Route.ComponentProps) {
  const { version, node, uptimeSeconds, database, images, users, blogs, queues, accountsWaiting, lastBackup, warnings, exports } = loaderData;
  const busy = useNavigation().state !== 'idle';
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <p className="text-sm"><Link className="link" to="/moderation">{MESSAGES.moderationHeading}</Link></p>
      <h1 className="mt-2 text-3xl font-bold">{MESSAGES.instanceHeading}</h1>

      <section className="mt-8" aria-labelledby="warnings-heading">
        <h2 id="warnings-heading" className="text-xl font-semibold">{MESSAGES.instanceWarningsHeading}</h2>
        {warnings.length === 0 ? <p className="mt-4 opacity-85">{MESSAGES.instanceNoWarnings}</p> : null}
        <ul className="mt-4 flex flex-col gap-2" data-testid="instance-warnings">
          {warnings.map((w) => (
            <li key={w.code} className="rounded-box border-l-4 border-warning bg-base-200 p-3" data-warning={w.code}>
              {w.text}
              {w.code === 'accounts-waiting' ? <> <Link className="link" to="/moderation#pending-heading">{MESSAGES.moderationHeading}</Link></> : null}
            </li>
          ))}
        </ul>
      </section>

      <section className="mt-10" aria-labelledby="figures-heading">
        <h2 id="figures-heading" className="text-xl font-semibold">Figures</h2>
        <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-3">
          <Figure label="Version" testId="instance-version">{version}</Figure>
          <Figure label="Node.js" testId="instance-node">{node}</Figure>
          <Figure label="Up for" testId="instance-uptime">{formatDuration(uptimeSeconds)}</Figure>
          <Figure label={`Database (${database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'})`} testId="instance-database">{formatBytes(database.bytes)}</Figure>
          <Figure label="Users" testId="instance-users">{users}</Figure>
          <Figure label="Blogs" testId="instance-blogs">{blogs}</Figure>
          <Figure label={`Images (${images.store === 's3' ? 'S3' : 'local disk'})`} testId="instance-images" wide>{formatBytes(images.bytes)} in {images.count === 1 ? '1 file' : `${images.count} files`}</Figure>
          <Figure label="Last backup" testId="instance-backup" wide>
            {lastBackup ? <><LocalTime iso={lastBackup.at} withTime /> <span className="block text-sm font-normal opacity-85">{lastBackup.name}</span></> : 'None found'}
          </Figure>
        </dl>
      </section>

      <section className="mt-10" aria-labelledby="queues-heading">
        <h2 id="queues-heading" className="text-xl font-semibold">Queues</h2>
        <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-labelledby="queues-heading">
          <table className="table" data-testid="instance-queues">
            <thead>
              <tr className="text-base-content"><th>Queue</th><th>Waiting</th><th>Oldest waits</th></tr>
            </thead>
            <tbody>
              <tr><td>Mails to send</td><td>{queues.mail.depth}</td><td>{queues.mail.depth ? formatDuration(queues.mail.oldestAgeSeconds) : '—'}</td></tr>
              <tr><td>Accounts waiting for approval</td><td data-testid="instance-accounts-waiting">{accountsWaiting}</td><td>—</td></tr>
              <tr><td>Open reports</td><td>{queues.reports.depth}</td><td>{queues.reports.depth ? formatDuration(queues.reports.oldestAgeSeconds) : '—'}</td></tr>
              <tr><td>Views to write</td><td>{queues.viewsBuffered}</td><td>a few seconds at most</td></tr>
            </tbody>
          </table>
        </div>
        <p className="mt-4 text-sm opacity-85">Prometheus reads the same figures, and more, from <code>/metrics</code> (see the README's Operating section).</p>
      </section>

      <p className="mt-10"><Link className="link" to="/moderation/import">{SITE_IMPORT_TEXTS.link}</Link>: {SITE_IMPORT_TEXTS.intro}</p>

      <section className="mt-10" aria-labelledby="site-export-heading">
        <h2 id="site-export-heading" className="text-xl font-semibold">{MESSAGES.exportSiteTitle}</h2>
        <Form method="post" className="mt-4 flex flex-col gap-3" data-testid="site-export">
          <p>{MESSAGES.exportSiteWhat}</p>
          <FormError id="site-export-error" message={actionData?.formError ?? undefined} />
          {actionData?.started ? <p role="status" className="alert alert-success" data-testid="export-started">{MESSAGES.exportStarted}</p> : null}
          <button type="submit" className="btn btn-primary self-start" disabled={busy}>{MESSAGES.exportSiteButton}</button>
          <ExportList exports={exports} />
        </Form>
      </section>
    </div>
  );
}
