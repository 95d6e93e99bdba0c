import { Link } from 'react-router';
import { FeedLink } from '~/components/feed-link';
import { StoryCard, type StoryCardBlog } from '~/features/blogs/components/story-card';
import { AddToWishlistButton } from '~/features/wishlist/components/add-to-wishlist-button';

/** A home card: the site's card without the Hidden mark or search excerpt (home lists public blogs only). */
export type RecentBlogCard = Omit<StoryCardBlog, 'availability'> & { name: string; readingTime: string };

export interface RecentBlogsProps {
  blogs: RecentBlogCard[];
  signedIn: boolean;
  wishlistIds: string[];
  /** The section is the whole page (/recent): its heading is the page's h1, card titles h2. */
  standalone?: boolean;
}

/** Home's Recent Blogs (docs/product.md#recent-blogs): the newest public blogs in 1/2/3 columns. */
export function RecentBlogs({ blogs, signedIn, wishlistIds, standalone = false }: RecentBlogsProps) {
  const inWishlist = new Set(wishlistIds);
  const Heading = standalone ? 'h1' : 'h2';
  const CardTitle = standalone ? 'h2' : 'h3';
  return (
    <section className="mx-auto w-full max-w-6xl px-4 py-14" aria-labelledby="recent-heading">
      <Heading id="recent-heading" className="text-center text-3xl font-bold tracking-tight sm:text-4xl">Recent Blogs</Heading>
      <p className="mx-auto mt-2 max-w-xl text-center opacity-80">Fresh from our writers, newest first.</p>
      {blogs.length === 0 ? (
        <p className="mt-8 text-center opacity-90">No blogs yet. Be the first to write one!</p>
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" data-testid="recent-blogs">
          {blogs.map((blog) => (
            <li key={blog._id} data-testid="recent-blog">
              <StoryCard
                blog={blog}
                heading={CardTitle}
                actions={<AddToWishlistButton blog={blog} variant="home" signedIn={signedIn} inWishlist={inWishlist.has(blog._id)} />}
              />
            </li>
          ))}
        </ul>
      )}
      <p className="mt-10 flex flex-wrap items-center justify-center gap-x-6 gap-y-3">
        <Link to="/allblogs" className="btn btn-outline btn-primary">See all blogs</Link>
        <FeedLink href="/feed.xml">Subscribe by RSS</FeedLink>
      </p>
    </section>
  );
}
