import { Page } from '~/components/page';
import { Pager } from '~/components/pager';
import { FeedLink } from '~/components/feed-link';
import { toCard } from '~/features/blogs/blogs.presenter';
import { BLOGS_PAGE_SIZE, PageQuerySchema } from '~/features/blogs/blogs.schema';
import { listBlogs } from '~/features/blogs/blogs.service.server';
import { tagFeedPath, tagPath } from '~/features/tags/tag-path';
import { getTag } from '~/features/tags/tags.service.server';
import { CardGrid } from '~/features/wishlist/components/card-grid';
import { listWishlistBlogIds } from '~/features/wishlist/wishlist.service.server';
import { errorPage } from '~/lib/page/page-errors.server';
import { pageMeta, siteOf } from '~/lib/page/seo';
import { MESSAGES } from '~/lib/texts/messages';
import type { CachedRead } from '~/lib/render/cacheability';
import type { Route } from './+types/tag';

/** Kept for anonymous readers (docs/decisions/055): a tag's list moves with the lists version. */
export const handle = { cache: 'lists' } satisfies CachedRead;

export const meta: Route.MetaFunction = ({ data: loaded, matches }) => {
  const site = siteOf(matches);
  if (!loaded) return [{ title: site.siteName }];
  const { tag, page } = loaded;
  return [
    ...pageMeta(site, {
      title: `${MESSAGES.tagHeading(tag.name)}${page > 1 ? ` (page ${page})` : ''} · ${site.siteName}`,
      description: MESSAGES.tagDescription(tag.name, site.siteName),
      path: pageHref(tag.name, page),
    }),
    { tagName: 'link', rel: 'alternate', type: 'application/atom+xml', href: tagFeedPath(tag.name, 'atom'), title: `${MESSAGES.tagHeading(tag.name)} (Atom)` },
    { tagName: 'link', rel: 'alternate', type: 'application/rss+xml', href: tagFeedPath(tag.name, 'rss'), title: `${MESSAGES.tagHeading(tag.name)} (RSS)` },
  ];
};

const pageHref = (name: string, page: number) => (page > 1 ? `${tagPath(name)}?page=${page}` : tagPath(name));

/** A bad page number in the address shows the first page, as All blogs does. */
const QuerySchema = PageQuerySchema.pick({ page: true }).extend({ page: PageQuerySchema.shape.page.catch(1) });

/** /tags/{tag} (docs/decisions/069): the posts the viewer may see that carry the tag, newest first, paged like All blogs. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { page } = QuerySchema.parse({ page: new URL(request.url).searchParams.get('page') ?? undefined });
  try {
    const tag = await getTag(context.service, params.tag);
    const [{ blogs, total }, wishlistIds] = await Promise.all([
      listBlogs(context.service, { tag: tag.key, page, limit: BLOGS_PAGE_SIZE }),
      context.user ? listWishlistBlogIds(context.service) : Promise.resolve([]),
    ]);
    return { tag, blogs: blogs.map(toCard), total, page, pages: Math.max(1, Math.ceil(total / BLOGS_PAGE_SIZE)), signedIn: context.user !== null, wishlistIds };
  } catch (error) {
    errorPage(error);
  }
}

export default function TagPage({ loaderData }: Route.ComponentProps) {
  const { tag, blogs, total, page, pages, signedIn, wishlistIds } = loaderData;
  const wished = new Set(wishlistIds);
  return (
    <Page title={MESSAGES.tagHeading(tag.name)}>
      <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 opacity-85">
        <span data-testid="tag-count">{MESSAGES.tagCount(total)}</span>
        <FeedLink href={tagFeedPath(tag.name, 'rss')}>{MESSAGES.tagFeedLink}</FeedLink>
      </p>
      {blogs.length === 0 ? (
        <p className="mt-10 opacity-85">{MESSAGES.tagNotFound}</p>
      ) : (
        <CardGrid blogs={blogs} signedIn={signedIn} wished={wished} />
      )}
      <Pager page={page} pages={pages} href={(n) => pageHref(tag.name, n)} />
    </Page>
  );
}
