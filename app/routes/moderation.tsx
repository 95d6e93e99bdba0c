import type { ReactNode } from 'react';
import { Form, Link, redirect } from 'react-router';
import { LocalTime } from '~/components/local-format';
import { GrantModeratorSchema, MODERATED_CONTENT, ModerationReasonSchema, SuspendSchema } from '~/features/moderation/moderation.schema';
import {
  banFromCommenting,
  deleteContent,
  dismissReport,
  getModerationOverview,
  grantModerator,
  hideContent,
  restoreContent,
  revokeModerator,
  suspendUser,
} from '~/features/moderation/moderation.service.server';
import { approveAccount, approveContent, listPendingAndHeld } from '~/features/moderation/spam-hold.service.server';
import { withFlash } from '~/lib/flash.server';
import { MESSAGES } from '~/lib/messages';
import { errorPage, pageRefusal } from '~/lib/page-errors.server';
import { pageMeta, siteOf } from '~/lib/seo';
import { userOrRedirectToLogin } from '~/lib/session.server';
import type { Route } from './+types/moderation';
import { defineAction } from '~/lib/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: `${MESSAGES.moderationHeading} · ${site.siteName}`, description: MESSAGES.moderationHeading, path: '/moderation', index: false });
};

/** Moderators and admins only; to anyone else the screen does not exist. */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    const [overview, hold] = await Promise.all([getModerationOverview(context.service), listPendingAndHeld(context.service)]);
    return { ...overview, ...hold };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

/** Every button on the screen: the service checks the role and writes the audit log. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [], input: { grant: GrantModeratorSchema, reason: ModerationReasonSchema, suspend: SuspendSchema } },
  async ({ request }, { ctx, input }) => {
    const form = await request.formData();
    const field = (name: string) => String(form.get(name) ?? '');
    const type = MODERATED_CONTENT[field('targetPath') as keyof typeof MODERATED_CONTENT];
    try {
      const intent = field('intent');
      if (intent === 'grant') {
        await grantModerator(ctx, input.grant.parse({ email: field('email'), reason: field('reason') || undefined }));
      } else {
        const reason = input.reason.parse({ reason: field('reason') });
        if (intent === 'hide' && type) await hideContent(ctx, type, field('targetId'), reason);
        else if (intent === 'restore' && type) await restoreContent(ctx, type, field('targetId'), reason);
        else if (intent === 'delete' && type) await deleteContent(ctx, type, field('targetId'), reason);
        else if (intent === 'approve' && type) await approveContent(ctx, type, field('targetId'), reason);
        else if (intent === 'approve-account') await approveAccount(ctx, field('userId'), reason);
        else if (intent === 'dismiss') for (const id of form.getAll('reportId')) await dismissReport(ctx, String(id), reason);
        else if (intent === 'suspend') await suspendUser(ctx, field('userId'), input.suspend.parse({ ...reason, days: field('days') || null }));
        else if (intent === 'comment-ban') await banFromCommenting(ctx, field('userId'), reason);
        else if (intent === 'revoke') await revokeModerator(ctx, field('userId'), reason);
        else return redirect('/moderation');
      }
    } catch (error) {
      const text = error instanceof Error && error.name === 'ZodError' ? MESSAGES.moderationReasonLabel : pageRefusal(error).message;
      return redirect('/moderation', { headers: withFlash({ type: 'toast', kind: 'error', text }) });
    }
    return redirect('/moderation', { headers: withFlash({ type: 'toast', kind: 'success', text: MESSAGES.moderationDone }) });
  },
);

function ReasonField({ id }: { id: string }) {
  return (
    <label className="flex w-full flex-col gap-1 sm:w-auto sm:min-w-64 sm:flex-1">
      <span className="text-sm font-semibold">{MESSAGES.moderationReasonLabel}</span>
      <input id={id} name="reason" required maxLength={500} className="input input-sm w-full" />
    </label>
  );
}

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

/** What was reported or waits: its title, if any, and its text. */
function Quoted({ title, text }: { title: string | null; text: string }) {
  return (
    <>
      {title ? <p className="mt-2 font-semibold">{title}</p> : null}
      {text ? <blockquote className="mt-2 max-h-40 overflow-auto whitespace-pre-line break-words border-l-4 border-base-300 pl-3">{text}</blockquote> : null}
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
      <button className="btn btn-error btn-sm" name="intent" value="delete">{MESSAGES.moderationDelete}</button>
    </>
  );
}

export default function Moderation({ loaderData }: Route.ComponentProps) {
  const { queue, removed, staff, log, pending, held } = loaderData;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-10">
      <h1 className="text-3xl font-bold">{MESSAGES.moderationHeading}</h1>
      {staff ? <p className="mt-2"><Link className="link" to="/moderation/instance">{MESSAGES.instanceLink}</Link></p> : null}

      <section className="mt-8" aria-labelledby="queue-heading">
        <h2 id="queue-heading" className="text-xl font-semibold">Reports</h2>
        {queue.length === 0 ? <p className="mt-4 opacity-85">{MESSAGES.moderationQueueEmpty}</p> : null}
        <ol className="mt-4 flex flex-col gap-4" data-testid="queue">
          {queue.map((item) => (
            <li key={`${item.targetType}:${item.targetId}`} className="rounded-box bg-base-200 p-4" data-testid="queue-item">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <span className="badge badge-outline">{item.targetType}</span>
                <span className="font-semibold">{MESSAGES.moderationReports(item.reports.length)}</span>
                {item.blogId ? <Link className="link" to={`/blogs/${item.blogId}`}>open</Link> : null}
                {item.targetType === 'user' ? <Link className="link" to={`/authors/${item.targetId}`}>open</Link> : null}
              </p>
              <Quoted title={item.title} text={item.text} />
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
                <label className="flex flex-col gap-1">
                  <span className="text-sm font-semibold">{MESSAGES.moderationDaysLabel}</span>
                  <input name="days" type="number" min={1} max={3650} className="input input-sm w-28" />
                </label>
                <button className="btn btn-error btn-outline btn-sm" name="intent" value="suspend">{MESSAGES.moderationSuspend}</button>
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
                <Link className="link" to={`/blogs/${p.blogId}`}>open</Link>
              </p>
              <Quoted title={p.title} text={p.text} />
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
              <p className="text-sm"><span className="badge badge-outline">{r.targetType}</span> <Link className="link" to={`/blogs/${r.blogId}`}>open</Link> · {MESSAGES.removedReason(r.reason)}</p>
              <p className="mt-1 line-clamp-3 whitespace-pre-line break-words">{r.text}</p>
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
          {/* Focusable, so a keyboard can scroll a wide log on a phone. */}
          <div className="mt-4 overflow-x-auto" tabIndex={0} role="region" aria-labelledby="log-heading">
            <table className="table table-sm" data-testid="audit-log">
              <thead>
                <tr className="text-base-content"><th>When</th><th>Who</th><th>What</th><th>Target</th><th>Why</th></tr>
              </thead>
              <tbody>
                {log.map((e) => (
                  <tr key={e.id}>
                    <td><LocalTime iso={e.at} withTime /></td>
                    <td>{e.actorName}</td>
                    <td>{e.action}</td>
                    <td>{e.targetType} {e.targetId.slice(0, 8)}</td>
                    <td className="break-words">{e.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
    </div>
  );
}
