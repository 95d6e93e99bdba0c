import type { ReactNode } from 'react';
import { Form, Link, redirect } from 'react-router';
import { LocalTime } from '~/components/local-format';
import { MarkdownBody } from '~/features/blogs/components/markdown-body';
import { renderQuotedBody } from '~/features/blogs/blogs.service.server';
import { ConfirmDeleteDialog, DeleteContentButton, type PendingDelete, ReasonField, SuspendControls } from '~/features/moderation/components/moderation-controls';
import { runModerationForm } from '~/features/moderation/moderation-form.server';
import { GrantModeratorSchema, ModerationReasonSchema, SuspendSchema } from '~/features/moderation/moderation.schema';
import { getModerationOverview } from '~/features/moderation/moderation.service.server';
import { listPendingAndHeld } from '~/features/moderation/spam-hold.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { SITE_IMPORT_TEXTS } from '~/lib/texts/imports';
import { MESSAGES } from '~/lib/texts/messages';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import { errorPage, pageRefusal } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import type { Route } from './+types/moderation';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.moderationHeading} · ${site.siteName}`, description: MESSAGES.moderationHeading, path: '/moderation', index: false });
};

/** An unconfirmed Delete sent without JavaScript comes back as the page with its dialog open. */
function pendingDeleteOf(url: URL): PendingDelete | null {
  const targetPath = url.searchParams.get('confirmDelete');
  const targetId = url.searchParams.get('targetId');
  const reason = url.searchParams.get('reason');
  if ((targetPath !== 'blogs' && targetPath !== 'comments') || !targetId || !reason) return null;
  return { targetPath, targetId, reason };
}

/** Moderators and admins only; to anyone else the screen does not exist. */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    const [overview, hold] = await Promise.all([getModerationOverview(context.service), listPendingAndHeld(context.service)]);
    const html = (type: string, text: string) => (type === 'blog' ? renderQuotedBody(context.service, text) : Promise.resolve(null));
    const [queue, pending] = await Promise.all([
      Promise.all(overview.queue.map(async (item) => ({ ...item, html: await html(item.targetType, item.text) }))),
      Promise.all(hold.pending.map(async (item) => ({ ...item, html: await html(item.targetType, item.text) }))),
    ]);
    return { ...overview, ...hold, queue, pending, pendingDelete: pendingDeleteOf(new URL(request.url)) };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

/** Every button on the screen: the service checks the role and writes the audit log. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: { grant: GrantModeratorSchema, reason: ModerationReasonSchema, suspend: SuspendSchema } },
  async ({ request }, { ctx }) => {
    try {
      const result = await runModerationForm(ctx, await request.formData());
      if ('confirmDelete' in result) return redirect(`/moderation?${new URLSearchParams({ confirmDelete: result.confirmDelete.targetPath, targetId: result.confirmDelete.targetId, reason: result.confirmDelete.reason })}`);
      if (!result.done) return redirect('/moderation', { headers: withFlash({ type: 'toast', kind: 'error', text: result.error }) });
    } catch (error) {
      return redirect('/moderation', { headers: withFlash({ type: 'toast', kind: 'error', text: pageRefusal(error).message }) });
    }
    return redirect('/moderation', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.moderationDone }) });
  },
);

const pathOf = (type: 'blog' | 'comment') => (type === 'blog' ? 'blogs' : 'comments');

/** One part of the screen: a heading, and a line saying so when it has nothing to show. */
function Part({ id, heading, emptyText, children }: { id: string; heading: string; emptyText: string | null; children: ReactNode }) {
  return (
    <section className="mt-10" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-xl font-semibold">{heading}</h2>
      {emptyText ? <p className="mt-4 opacity-85">{emptyText}</p> : null}
      {children}
    </section>
  );
}

/** What was reported or waits: its title, if any, and its text (a blog's Markdown rendered as its readers see it). */
function Quoted({ title, text, html }: { title: string | null; text: string; html: string | null }) {
  return (
    <>
      {title ? <p className="mt-2 font-semibold">{title}</p> : null}
      {html ? (
        <div className="mt-2 max-h-60 overflow-auto border-l-4 border-base-300 pl-3" data-testid="quoted-markdown">
          <MarkdownBody html={html} className="mt-0 text-base" />
        </div>
      ) : text ? (
        <blockquote className="mt-2 max-h-40 overflow-auto whitespace-pre-line border-l-4 border-base-300 pl-3">{text}</blockquote>
      ) : null}
    </>
  );
}

/** The blog or comment a form acts on, its writer, and the two actions every such form has. */
function ContentActions({ type, id, ownerId }: { type: 'blog' | 'comment'; id: string; ownerId: string }) {
  return (
    <>
      <input type="hidden" name="targetPath" value={pathOf(type)} />
      <input type="hidden" name="targetId" value={id} />
      <input type="hidden" name="userId" value={ownerId} />
      <button className="btn btn-warning btn-sm" name="intent" value="hide">{MESSAGES.moderationHide}</button>
      <DeleteContentButton type={type} />
    </>
  );
}

export default function Moderation({ loaderData }: Route.ComponentProps) {
  const { queue, removed, staff, log, pending, held, pendingDelete } = loaderData;
  return (
    // Words wrap whole here: the site's `anywhere` let a narrow column break them mid-word on a phone.
    <div className="mx-auto w-full max-w-4xl px-4 py-10 [overflow-wrap:break-word]">
      {pendingDelete ? <ConfirmDeleteDialog pending={pendingDelete} back="/moderation" /> : null}
      <h1 className="text-3xl font-bold">{MESSAGES.moderationHeading}</h1>
      {staff ? <p className="mt-2"><Link className="link" to="/moderation/instance">{MESSAGES.instanceLink}</Link></p> : null}
      {staff ? <p className="mt-2"><Link className="link" to="/moderation/import">{SITE_IMPORT_TEXTS.link}</Link></p> : null}
      <p className="mt-2"><Link className="link" to="/moderation/fediverse">{FEDERATION_TEXTS.blocksHeading}</Link></p>

      <section className="mt-8" aria-labelledby="queue-heading">
        <h2 id="queue-heading" className="text-xl font-semibold">Reports</h2>
        {queue.length === 0 ? <p className="mt-4 opacity-85">{MESSAGES.moderationQueueEmpty}</p> : null}
        <ol className="mt-4 flex flex-col gap-4" data-testid="queue">
          {queue.map((item) => (
            <li key={`${item.targetType}:${item.targetId}`} className="rounded-box bg-base-200 p-4" data-testid="queue-item">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="badge badge-outline">{item.targetType}</span>
                <span className="font-semibold">{MESSAGES.moderationReports(item.reports.length)}</span>
                {item.blogPath ? <Link className="link" to={item.blogPath}>open</Link> : null}
                {item.targetType === 'user' ? <Link className="link" to={`/authors/${item.targetId}`}>open</Link> : null}
              </p>
              <Quoted title={item.title} text={item.text} html={item.html} />
              <ul className="mt-3 flex flex-col gap-1 text-sm">
                {item.reports.map((r) => (
                  <li key={r.id}>
                    <strong>{r.reason}</strong>{r.details ? `: ${r.details}` : ''} <span className="opacity-75">— {r.reporterName}, <LocalTime iso={r.at} withTime /></span>
                  </li>
                ))}
              </ul>
              <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
                <ReasonField id={`reason-${item.targetId}`} />
                {item.reports.map((r) => <input key={r.id} type="hidden" name="reportId" value={r.id} />)}
                {item.targetType === 'user' ? (
                  <input type="hidden" name="userId" value={item.targetId} />
                ) : (
                  <ContentActions type={item.targetType} id={item.targetId} ownerId={item.ownerId} />
                )}
                <button className="btn btn-ghost btn-sm" name="intent" value="dismiss">{MESSAGES.moderationDismiss}</button>
                <button className="btn btn-ghost btn-sm" name="intent" value="comment-ban">{MESSAGES.moderationCommentBan}</button>
                <SuspendControls id={`period-${item.targetId}`} />
              </Form>
            </li>
          ))}
        </ol>
      </section>

      <Part id="pending" heading={MESSAGES.pendingHeading} emptyText={pending.length === 0 ? MESSAGES.pendingEmpty : null}>
        <ol className="mt-4 flex flex-col gap-3" data-testid="pending">
          {pending.map((p) => (
            <li key={`${p.targetType}:${p.targetId}`} className="rounded-box bg-base-200 p-4" data-testid="pending-item">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="badge badge-outline">{p.targetType}</span>
                <span className="font-semibold">{p.ownerName}</span>
                <span className="opacity-75"><LocalTime iso={p.since} withTime /></span>
                <Link className="link" to={p.blogPath}>open</Link>
              </p>
              <Quoted title={p.title} text={p.text} html={p.html} />
              <Form method="post" className="mt-3 flex flex-wrap items-end gap-2">
                <ReasonField id={`approve-${p.targetId}`} />
                <button className="btn btn-success btn-sm" name="intent" value="approve">{MESSAGES.approveContent}</button>
                <button className="btn btn-success btn-outline btn-sm" name="intent" value="approve-account">{MESSAGES.approveAccount}</button>
                <ContentActions type={p.targetType} id={p.targetId} ownerId={p.ownerId} />
              </Form>
            </li>
          ))}
        </ol>
      </Part>

      <Part id="held" heading={MESSAGES.heldAccountsHeading} emptyText={held.length === 0 ? MESSAGES.heldAccountsEmpty : null}>
        <ul className="mt-4 flex flex-col gap-3" data-testid="held">
          {held.map((h) => (
            <li key={h.userId} className="rounded-box bg-base-200 p-4" data-testid="held-account">
              <p className="text-sm">
                <Link className="link font-semibold" to={`/authors/${h.userId}`}>{h.name}</Link> · {h.blogs === 1 ? '1 blog' : `${h.blogs} blogs`} · until <LocalTime iso={h.heldUntil} withTime />
              </p>
              <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="userId" value={h.userId} />
                <ReasonField id={`approve-account-${h.userId}`} />
                <button className="btn btn-success btn-sm" name="intent" value="approve-account">{MESSAGES.approveAccount}</button>
              </Form>
            </li>
          ))}
        </ul>
      </Part>

      <section className="mt-10" aria-labelledby="removed-heading">
        <h2 id="removed-heading" className="text-xl font-semibold">{MESSAGES.removedByModerator}</h2>
        {removed.length === 0 ? <p className="mt-4 opacity-85">{MESSAGES.removedEmpty}</p> : null}
        <ol className="mt-4 flex flex-col gap-3" data-testid="removed">
          {removed.map((r) => (
            <li key={`${r.targetType}:${r.targetId}`} className="rounded-box bg-base-200 p-4">
              <p className="text-sm"><span className="badge badge-outline">{r.targetType}</span> <Link className="link" to={r.blogPath}>open</Link> · {MESSAGES.removedReason(r.reason)}</p>
              <p className="mt-1 line-clamp-3 whitespace-pre-line">{r.text}</p>
              <Form method="post" className="mt-2 flex flex-wrap items-end gap-2">
                <input type="hidden" name="targetPath" value={pathOf(r.targetType)} />
                <input type="hidden" name="targetId" value={r.targetId} />
                <ReasonField id={`restore-${r.targetId}`} />
                <button className="btn btn-success btn-sm" name="intent" value="restore">{MESSAGES.moderationRestore}</button>
              </Form>
            </li>
          ))}
        </ol>
      </section>

      {staff ? (
        <section className="mt-10" aria-labelledby="staff-heading">
          <h2 id="staff-heading" className="text-xl font-semibold">{MESSAGES.moderatorsHeading}</h2>
          <ul className="mt-4 flex flex-col gap-2">
            {staff.map((s) => (
              <li key={s.userId} className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{s.name}</span> <span className="opacity-80">{s.email}</span> <span className="badge">{s.role}</span>
                {s.role === 'moderator' ? (
                  <Form method="post" className="flex items-center gap-2">
                    <input type="hidden" name="userId" value={s.userId} />
                    <input type="hidden" name="reason" value={MESSAGES.revokeModerator} />
                    <button className="btn btn-ghost btn-xs" name="intent" value="revoke">{MESSAGES.revokeModerator}</button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
          <Form method="post" className="mt-4 flex flex-wrap items-end gap-2">
            <label className="flex flex-col gap-1">
              <span className="text-sm font-semibold">Email</span>
              <input name="email" type="email" required className="input input-sm" />
            </label>
            <button className="btn btn-primary btn-sm" name="intent" value="grant">{MESSAGES.grantModerator}</button>
          </Form>
        </section>
      ) : null}

      {log ? (
        <section className="mt-10" aria-labelledby="log-heading">
          <h2 id="log-heading" className="text-xl font-semibold">{MESSAGES.auditLogHeading}</h2>
          {/* Sentences, not a table of codes: who did what to whom, when and why (decision 061). */}
          <ol className="mt-4 divide-y divide-base-300" data-testid="audit-log">
            {log.map((e) => {
              const { verb, after } = MESSAGES.auditAction(e.action);
              const target = MESSAGES.auditTarget(e.targetType, e.targetName);
              return (
              <li key={e.id} className="py-3">
                <p>
                  <strong>{e.actorName}</strong> {verb} {e.targetPath ? <Link className="link" to={e.targetPath}>{target}</Link> : target}
                  {after ? ` ${after}` : null}
                  {e.until ? <> until <LocalTime iso={e.until} withTime /></> : null}.
                </p>
                <p className="mt-1 text-sm opacity-85">
                  <LocalTime iso={e.at} withTime />{e.reason ? <> · {MESSAGES.auditWhy(e.reason)}</> : null}
                </p>
              </li>
              );
            })}
          </ol>
        </section>
      ) : null}
    </div>
  );
}
