import { RecentBlogs } from '~/features/home/components/recent-blogs';
import { loadRecentBlogsSection } from '~/features/home/home.service.server';
import type { Route } from './+types/recent';

export const meta: Route.MetaFunction = () => [{ title: 'Recent Blogs · Afterglow' }];

export async function loader({ context }: Route.LoaderArgs) {
  return { signedIn: !!context.user, ...(await loadRecentBlogsSection(context.service)) };
}

/** The Recent Blogs section alone (spec §2 route table). */
export default function Recent({ loaderData }: Route.ComponentProps) {
  return <RecentBlogs blogs={loaderData.blogs} signedIn={loaderData.signedIn} wishlistIds={loaderData.wishlistIds} />;
}
