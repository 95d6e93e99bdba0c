import { Form, useNavigation } from 'react-router';
import { Page } from '~/components/page';
import { Pager } from '~/components/pager';
import { toCard } from '~/features/blogs/blogs.presenter';
import { z } from 'zod';
import { BLOG_CATEGORIES, BLOGS_PAGE_SIZE, SEARCH_MAX_LENGTH } from '~/features/blogs/blogs.constants';
import { ListBlogsQuerySchema } from '~/features/blogs/blogs.schema';
import { listBlogs } from '~/features/blogs/blogs.service.server';
import { CardGrid } from '~/features/wishlist/components/card-grid';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { pageMeta, siteOf } from '~/lib/page/seo';
import type { Route } from './+types/all-blogs';
import type { CachedRead } from '~/lib/render/cacheability';

/** Kept for anonymous readers (docs/decisions/055). */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  const { category = '', q = '', page = 1 } = loaded ?? {};
  const heading = q ? `Search: ${q}` : category || MESSAGES.allBlogsHeading;
  return pageMeta(site, {
    title: `${heading}${page > 1 ? ` (page ${page})` : ''} · ${site.siteName}`,
    description: `Every public blog on ${site.siteName}, newest first: travel tales, tech tips, food, fashion, crafts and more, by category.`,
    path: pageHref(category, '', page),
    // Search results are for visitors, not for crawlers (the category pages cover the same blogs).
    index: !q,
  });
};

/**
 * A bad category or page in the address shows the first page of all blogs rather than an error;
 * too long a search text is cut to the length the field allows.
 */
const QuerySchema = ListBlogsQuerySchema.pick({ q: true, search: true, page: true }).extend({
  q: z.preprocess((v) => (typeof v === 'string' ? v.slice(0, SEARCH_MAX_LENGTH) : v), ListBlogsQuerySchema.shape.q),
  search: ListBlogsQuerySchema.shape.search.catch(undefined),
  page: ListBlogsQuerySchema.shape.page.catch(1),
});

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { q, search: category, page } = QuerySchema.parse({
    q: url.searchParams.get('q') ?? undefined,
    search: url.searchParams.get('category') ?? undefined,
    page: url.searchParams.get('page') ?? undefined,
  });
  const [{ blogs, total }, wishlistIds] = await Promise.all([
    listBlogs(context.service, { q, search: category, page, limit: BLOGS_PAGE_SIZE }),
    context.user ? listWishlistBlogIds(context.service) : Promise.resolve([]),
  ]);
  return {
    blogs: blogs.map(toCard),
    category: category ?? '',
    q: q ?? '',
    page,
    pages: Math.max(1, Math.ceil(total / BLOGS_PAGE_SIZE)),
    signedIn: context.user !== null,
    wishlistIds,
  };
}

function pageHref(category: string, q: string, page: number) {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (category) params.set('category', category);
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/allblogs?${query}` : '/allblogs';
}

export default function AllBlogs({ loaderData }: Route.ComponentProps) {
  const { blogs, category, q, page, pages, signedIn, wishlistIds } = loaderData;
  const navigation = useNavigation();
  const loading = navigation.state === 'loading' && navigation.location.pathname === '/allblogs';
  const wished = new Set(wishlistIds);

  return (
    <Page title={MESSAGES.allBlogsHeading}>
      {/* On a phone the search is two short rows, so the first cards show on the first screen. */}
      <Form method="get" className="mt-6 grid grid-cols-[1fr_auto] items-end gap-2 sm:flex sm:flex-wrap sm:gap-3" role="search">
        <div className="min-w-0 sm:w-auto">
          <label htmlFor="q" className="mb-1 block font-semibold max-sm:sr-only">{MESSAGES.search}</label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            key={q}
            maxLength={SEARCH_MAX_LENGTH}
            placeholder="Words in a title or story"
            className="input w-full sm:w-72"
          />
        </div>
        <div className="col-span-2 row-start-2 sm:w-auto">
          <label htmlFor="category" className="mb-1 block font-semibold max-sm:sr-only">Category</label>
          <select id="category" name="category" defaultValue={category} key={category} className="select w-full sm:w-64">
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
        <p className="mt-10 opacity-85">
          No blogs found{q ? ` for “${q}”` : ''}{category ? ` in ${category}` : ''}.
        </p>
      ) : (
        <CardGrid blogs={blogs} signedIn={signedIn} wished={wished} busy={loading} />
      )}

      <Pager page={page} pages={pages} href={(n) => pageHref(category, q, n)} />
    </Page>
  );
}
