import { Form, Link, useNavigation } from 'react-router';
import { Page } from '~/components/page';
import { toCard } from '~/features/blogs/blog.presenter';
import { BLOG_CATEGORIES, BLOGS_PAGE_SIZE, ListBlogsQuerySchema } from '~/features/blogs/blog.schema';
import { listBlogs } from '~/features/blogs/blog.service.server';
import { BlogCard } from '~/features/blogs/components/blog-card';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import { MESSAGES } from '~/lib/messages';
import type { Route } from './+types/all-blogs';

export const meta: Route.MetaFunction = () => [
  { title: 'All blogs · Afterglow' },
  { name: 'description', content: 'Every public blog on Afterglow, newest first: travel tales, tech tips, food, fashion, crafts and more, by category.' },
];

/** A bad category or page in the address shows the first page of all blogs rather than an error. */
const QuerySchema = ListBlogsQuerySchema.pick({ search: true, page: true }).extend({
  search: ListBlogsQuerySchema.shape.search.catch(undefined),
  page: ListBlogsQuerySchema.shape.page.catch(1),
});

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { search: category, page } = QuerySchema.parse({
    search: url.searchParams.get('category') ?? undefined,
    page: url.searchParams.get('page') ?? undefined,
  });
  const [{ blogs, total }, wishlistIds] = await Promise.all([
    listBlogs(context.service, { search: category, page, limit: BLOGS_PAGE_SIZE }),
    context.user ? listWishlistBlogIds(context.service) : Promise.resolve([]),
  ]);
  return {
    blogs: blogs.map(toCard),
    category: category ?? '',
    page,
    pages: Math.max(1, Math.ceil(total / BLOGS_PAGE_SIZE)),
    viewer: context.user?.email ?? null,
    wishlistIds,
  };
}

const pageHref = (category: string, page: number) => {
  const params = new URLSearchParams();
  if (category) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/allblogs?${query}` : '/allblogs';
};

export default function AllBlogs({ loaderData }: Route.ComponentProps) {
  const { blogs, category, page, pages, viewer, wishlistIds } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/allblogs';
  const wished = new Set(wishlistIds);

  return (
    <Page title={MESSAGES.allBlogsHeading}>
      <Form method="get" className="mt-6 flex flex-wrap items-end gap-3" role="search">
        <div>
          <label htmlFor="category" className="mb-1 block font-semibold">Category</label>
          <select id="category" name="category" defaultValue={category} key={category} className="select w-64 max-w-full">
            <option value="">All categories</option>
            {BLOG_CATEGORIES.map((c) => (
              <option key={c} value={c}>{c}</option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">{MESSAGES.search}</button>
        {loading ? <span className="loading loading-dots loading-md" role="status" aria-label="Loading" /> : null}
      </Form>

      {blogs.length === 0 ? (
        <p className="mt-10 opacity-85">No blogs found{category ? ` in ${category}` : ''}.</p>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy={loading} data-testid="blog-grid">
          {blogs.map((blog) => (
            <li key={blog._id}>
              <BlogCard blog={blog} viewerEmail={viewer} inWishlist={wished.has(blog._id)} />
            </li>
          ))}
        </ul>
      )}

      {pages > 1 ? (
        <nav aria-label="Pagination" className="mt-10 flex justify-center">
          <div className="join">
            {page > 1 ? (
              <Link to={pageHref(category, page - 1)} className="join-item btn" rel="prev">Previous</Link>
            ) : null}
            {Array.from({ length: pages }, (_, i) => i + 1)
              .filter((n) => n === 1 || n === pages || Math.abs(n - page) <= 2)
              .map((n) => (
                <Link key={n} to={pageHref(category, n)} className={`join-item btn ${n === page ? 'btn-active btn-primary' : ''}`} aria-current={n === page ? 'page' : undefined}>
                  {n}
                </Link>
              ))}
            {page < pages ? (
              <Link to={pageHref(category, page + 1)} className="join-item btn" rel="next">Next</Link>
            ) : null}
          </div>
        </nav>
      ) : null}
    </Page>
  );
}
