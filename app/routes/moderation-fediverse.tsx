import { Form, Link, redirect } from 'react-router';
import { RemoteBlockSchema, RemoteUnblockSchema } from '~/features/federation/federation.schema';
import { blockRemote, listRemoteBlocks, unblockRemote } from '~/features/federation/federation.service.server';
import { withFlash } from '~/lib/page/flash.server';
import { backWithRefusal, errorPage } from '~/lib/page/page-errors.server';
import { defineAction } from '~/lib/page/page-action.server';
import { pageTitle } from '~/lib/page/seo';
import { userOrRedirectToLogin } from '~/lib/page/session.server';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import type { Route } from './+types/moderation-fediverse';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, FEDERATION_TEXTS.blocksHeading) }];

/** Moderators only (the service checks the role); to anyone else the screen does not exist. */
export async function loader({ context, request }: Route.LoaderArgs) {
  userOrRedirectToLogin(context, request);
  try {
    return { blocks: await listRemoteBlocks(context.service) };
  } catch (error) {
    errorPage(error, { hideForbidden: true });
  }
}

const BACK = '/moderation/fediverse';

export const action = defineAction<Route.ActionArgs>()({ auth: 'user', limits: [], input: { block: RemoteBlockSchema, unblock: RemoteUnblockSchema } }, async ({ request }, { ctx, input }) => {
  const form = Object.fromEntries(await request.formData());
  try {
    if (form.intent === 'unblock') {
      const parsed = input.unblock.safeParse(form);
      if (parsed.success) await unblockRemote(ctx, parsed.data.blockId);
      return redirect(BACK, { headers: withFlash({ type: 'toast', kind: 'success', text: FEDERATION_TEXTS.unblocked }) });
    }
    const parsed = input.block.safeParse(form);
    if (!parsed.success) return redirect(BACK, { headers: withFlash({ type: 'toast', kind: 'error', text: parsed.error.issues[0]!.message }) });
    await blockRemote(ctx, parsed.data);
    return redirect(BACK, { headers: withFlash({ type: 'toast', kind: 'success', text: FEDERATION_TEXTS.blocked }) });
  } catch (error) {
    return backWithRefusal(error, BACK);
  }
});

/** Remote accounts and servers a moderator blocked (docs/decisions/068), with a form to block more. */
export default function ModerationFediverse({ loaderData }: Route.ComponentProps) {
  const { blocks } = loaderData!;
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{FEDERATION_TEXTS.blocksHeading}</h1>
      <p className="mt-2 opacity-90">{FEDERATION_TEXTS.blocksIntro}</p>
      <Form method="post" className="mt-6 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <input type="hidden" name="intent" value="block" />
        <label className="flex flex-col gap-1 text-sm">
          {FEDERATION_TEXTS.blockTargetLabel}
          <input name="target" required className="input input-bordered w-full" placeholder="@name@social.example" autoComplete="off" spellCheck={false} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {FEDERATION_TEXTS.blockReasonLabel}
          <input name="reason" required className="input input-bordered w-full" autoComplete="off" />
        </label>
        <button type="submit" className="btn btn-error">{FEDERATION_TEXTS.blockButton}</button>
      </Form>
      {blocks.length === 0 ? <p className="mt-6 opacity-90">{FEDERATION_TEXTS.noBlocks}</p> : null}
      <ul className="mt-6 flex flex-col gap-3" data-testid="fediverse-blocks">
        {blocks.map((b) => (
          <li key={b.id} className="card card-side items-center gap-3 border border-base-300 bg-base-100 p-4 shadow-sm">
            <div className="min-w-0 flex-1">
              <p className="break-all font-semibold">{b.target}</p>
              <p className="text-sm opacity-85">{b.kind === 'instance' ? 'Server' : 'Account'} · {b.reason}</p>
            </div>
            <Form method="post">
              <input type="hidden" name="intent" value="unblock" />
              <input type="hidden" name="blockId" value={b.id} />
              <button type="submit" className="btn btn-outline btn-sm" aria-label={`${FEDERATION_TEXTS.unblockButton} ${b.target}`}>
                {FEDERATION_TEXTS.unblockButton}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <Link to="/moderation" className="btn btn-ghost btn-sm mt-6">Back to moderation</Link>
    </section>
  );
}
