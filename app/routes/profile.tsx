import { data, Link, redirect } from 'react-router';
import { Avatar } from '~/components/avatar';
import { Page } from '~/components/page';
import { DraftsList } from '~/features/blogs/components/drafts-list';
import { listOwnDrafts } from '~/features/blogs/drafts.service.server';
import { TwoFactorSection, type TwoFactorActionData } from '~/features/users/components/two-factor-section';
import { changeTwoFactor } from '~/features/users/account.service.server';
import { federates } from '~/features/federation/handles.service.server';
import { getOwnProfile } from '~/features/users/users.service.server';
import { displayName } from '~/lib/core/display-name';
import { FEEDBACK_MS } from '~/lib/page/feedback';
import { withFlash } from '~/lib/page/flash.server';
import { MESSAGES } from '~/lib/texts/messages';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';
import { pageTitle } from '~/lib/page/seo';
import type { Route } from './+types/profile';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { defineAction } from '~/lib/page/page-action.server';

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle(matches, 'Profile') }];

export async function loader({ context }: Route.LoaderArgs) {
  if (!context.user) return { profile: null, twoFactor: false, drafts: [], fediverse: false };
  const { name, email, photo } = await getOwnProfile(context.service, context.user.email);
  const drafts = (await listOwnDrafts(context.service)).map((d) => ({ id: d.id, blogId: d.blogId, title: d.values.title, publishAt: d.publishAt, updatedAt: d.updatedAt }));
  return { profile: { name, email, photo, id: context.user.id }, twoFactor: await context.service.auth.twoFactorEnabled(), drafts, fediverse: federates(context.service) };
}

/**
 * The enable answer shows the TOTP secret and the recovery codes: its `no-store` must reach the
 * response, which React Router does only through this export (audit item 10).
 */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const cacheControl = actionHeaders.get('Cache-Control');
  return new Headers(cacheControl ? { 'Cache-Control': cacheControl } : undefined);
};

const INTENTS = ['enable', 'confirm', 'disable'] as const;
type Intent = (typeof INTENTS)[number];

/** Two-factor set-up and removal (docs/decisions/015), through better-auth's plugin as the browser would call it. */
export const action = defineAction<Route.ActionArgs>()(
  { auth: 'user', limits: [RATE_LIMITS.twoFactor], input: 'id' },
  async ({ request }, { ctx }) => {
    const form = await request.formData();
    const intent = String(form.get('intent') ?? '') as Intent;
    if (!INTENTS.includes(intent)) throw data(null, { status: 400 });
    const field = (name: string) => String(form.get(name) ?? '');
    const outcome = await changeTwoFactor(ctx, intent, intent === 'confirm' ? field('code').trim() : field('password'));
    if (!outcome.ok) return data<TwoFactorActionData>({ intent, error: outcome.message }, { status: outcome.status });
    if (outcome.setup) return data<TwoFactorActionData>({ intent: 'enable', setup: outcome.setup }, { headers: { 'Cache-Control': 'no-store' } });
    // Both rotate the session: the new cookie goes with the redirect.
    const text = intent === 'confirm' ? MESSAGES.twoFactorEnabled : MESSAGES.twoFactorDisabled;
    return redirect('/profile', { headers: withFlash({ type: 'toast', kind: 'success', text, duration: FEEDBACK_MS.success }, outcome.cookies) });
  },
);

export default function Profile({ loaderData: { profile, twoFactor, drafts, fediverse }, actionData }: Route.ComponentProps) {
  if (!profile) {
    return (
      <Page title={MESSAGES.profile} wide={false}>
        <p className="mt-6 text-lg" data-testid="no-user">{MESSAGES.noUserLoggedIn}</p>
      </Page>
    );
  }
  const name = displayName(profile.name);
  return (
    <section className="mx-auto w-full max-w-md px-4 py-10">
      <h1 className="sr-only">{MESSAGES.profile}</h1>
      <div className="card border border-base-300 bg-base-100 shadow-xl">
        <div className="card-body items-center gap-3 text-center">
          <div className="rounded-full ring-4 ring-primary ring-offset-2 ring-offset-base-100">
            <Avatar src={profile.photo} alt={`Photo of ${name}`} size={128} />
          </div>
          <p className="text-2xl font-bold" data-testid="profile-name">{name}</p>
          <p className="opacity-90" data-testid="profile-email">{profile.email}</p>
          <div className="mt-2 flex flex-wrap justify-center gap-2">
            <Link to="/update-profile" className="btn btn-primary">{MESSAGES.updateProfileLink}</Link>
            {/* Every blog of mine, Hidden ones included, with views and likes (on the writer's own page). */}
            <Link to={`/authors/${profile.id}`} className="btn btn-outline btn-primary">My blogs</Link>
          </div>
          <div className="flex flex-wrap justify-center gap-2">
            <Link to="/following" className="btn btn-ghost btn-sm">{MESSAGES.following}</Link>
            <Link to="/mail/preferences" className="btn btn-ghost btn-sm">{MESSAGES.preferencesTitle}</Link>
            <Link to="/account" className="btn btn-ghost btn-sm">{MESSAGES.accountSettings}</Link>
            <Link to="/profile/stats" className="btn btn-ghost btn-sm">My numbers</Link>
            {fediverse ? <Link to="/profile/fediverse" className="btn btn-ghost btn-sm">{FEDERATION_TEXTS.followersHeading}</Link> : null}
            <Link to="/profile/import" className="btn btn-ghost btn-sm">Import posts</Link>
          </div>
        </div>
      </div>
      <DraftsList drafts={drafts} />
      <TwoFactorSection enabled={twoFactor} actionData={actionData} />
    </section>
  );
}
