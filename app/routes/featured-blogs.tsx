import { Link } from 'react-router';
import { blogPath } from '~/features/blogs/blog-path';
import { Page } from '~/components/page';
import { listFeaturedBlogs } from '~/features/blogs/blogs.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/featured-blogs';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: `${MESSAGES.featuredHeading} · ${site.siteName}`,
    description: `The ten most-liked blogs on ${site.siteName} right now, with their authors and categories.`,
    path: '/featuredBlogs',
  });
};

export async function loader({ context }: Route.LoaderArgs) {
  const blogs = await listFeaturedBlogs(context.service);
  return { blogs: blogs.map(({ _id, title, name, category }) => ({ _id, title, name, category })) };
}

/** The 10 public blogs with the most likes; ties by views, then newest (docs/product.md#recent-and-featured). */
export default function FeaturedBlogs({ loaderData }: Route.ComponentProps) {
  const { blogs } = loaderData;
  return (
    <Page title={MESSAGES.featuredHeading}>
      {/* A phone gets the same ten as cards (a four-column table squeezes titles there); wider
          screens the table (docs/product.md#featured-blogs). */}
      <ol className="mt-6 flex flex-col gap-3 sm:hidden" data-testid="featured-cards">
        {blogs.map((blog, index) => (
          <li key={blog._id} className="relative flex gap-4 rounded-box bg-base-200 p-4 ring-1 ring-base-300">
            <span className="shrink-0 font-serif text-2xl font-bold text-primary tabular-nums" aria-hidden="true">{index + 1}</span>
            <div className="min-w-0">
              <Link to={blogPath(blog)} className="font-semibold after:absolute after:inset-0 hover:underline">
                <span className="sr-only">{index + 1}. </span>
                {blog.title}
              </Link>
              <p className="mt-1 text-sm opacity-85">{blog.name} · {blog.category}</p>
            </div>
          </li>
        ))}
        {blogs.length === 0 ? <li className="rounded-box bg-base-200 p-4">No blogs yet.</li> : null}
      </ol>
      <div className="mt-8 overflow-x-auto rounded-box bg-base-200 ring-1 ring-base-300 max-sm:hidden">
        <table className="table table-zebra" data-testid="featured-table">
          <thead className="text-base-content">
            <tr>
              <th scope="col">#</th>
              <th scope="col">Title</th>
              <th scope="col">Author</th>
              <th scope="col">Category</th>
            </tr>
          </thead>
          <tbody>
            {blogs.length === 0 ? (
              <tr>
                <td colSpan={4}>No blogs yet.</td>
              </tr>
            ) : (
              blogs.map((blog, index) => (
                <tr key={blog._id}>
                  <th scope="row">{index + 1}</th>
                  <td>
                    <Link to={blogPath(blog)} className="link link-hover font-semibold">{blog.title}</Link>
                  </td>
                  <td>{blog.name}</td>
                  <td>{blog.category}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </Page>
  );
}
