import { Link } from 'react-router';
import { Avatar } from '~/components/avatar';
import { Page } from '~/components/page';
import { getOwnProfile } from '~/features/users/users.service.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/profile';

export const meta: Route.MetaFunction = () => [{ title: 'Profile · Afterglow' }];

export async function loader({ context }: Route.LoaderArgs) {
  if (!context.user) return { profile: null };
  const { name, email, photo } = await getOwnProfile(context.service, context.user.email);
  return { profile: { name, email, photo } };
}

export default function Profile({ loaderData: { profile } }: Route.ComponentProps) {
  if (!profile) {
    return (
      <Page title={MESSAGES.profile} wide={false}>
        <p className="mt-6 text-lg" data-testid="no-user">{MESSAGES.noUserLoggedIn}</p>
      </Page>
    );
  }
  const name = profile.name?.trim() || MESSAGES.defaultDisplayName;
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
          <Link to="/update-profile" className="btn btn-primary mt-2">{MESSAGES.updateProfileLink}</Link>
        </div>
      </div>
    </section>
  );
}
