import { Link } from 'react-router';
import { BlogPhoto } from '~/features/blogs/components/blog-photo';
import { AddToWishlistButton } from '~/features/wishlist/components/add-to-wishlist-button';
import { MESSAGES } from '~/lib/messages';
import { LocalTime } from '~/components/local-format';

function FeedIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden="true">
      <path d="M5 17a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM3 10v3a8 8 0 0 1 8 8h3A11 11 0 0 0 3 10zm0-7v3a15 15 0 0 1 15 15h3A18 18 0 0 0 3 3z" />
    </svg>
  );
}

export interface RecentBlogCard {
  _id: string;
  title: string;
  photo: string | null;
  category: string;
  short_description: string;
  createdAt: string;
}

export interface RecentBlogsProps {
  blogs: RecentBlogCard[];
  signedIn: boolean;
  wishlistIds: string[];
  /** The section is the whole page (/recent): its heading is the page's h1, card titles h2. */
  standalone?: boolean;
}

/** Home's Recent Blogs (spec §2): the newest public blogs in 1/2/3 columns. */
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
            <li key={blog._id} className="card overflow-hidden bg-base-200 shadow-md ring-1 ring-base-300" data-testid="recent-blog">
              {blog.photo ? (
                <figure className="aspect-[16/10] bg-base-300">
                  <BlogPhoto src={blog.photo} sizes="(min-width: 1024px) 370px, (min-width: 768px) 50vw, 100vw" className="h-full w-full object-cover" />
                </figure>
              ) : null}
              <div className="card-body gap-3">
                <span className="badge badge-secondary badge-outline">{blog.category}</span>
                <CardTitle className="card-title text-xl leading-snug">{blog.title}</CardTitle>
                <p className="text-sm opacity-80">
                  {MESSAGES.postedOn} <LocalTime iso={blog.createdAt} />
                </p>
                <div className="card-actions mt-auto items-center justify-between pt-2">
                  <Link to={`/blogs/${blog._id}`} className="link link-primary font-semibold">
                    Read more<span className="sr-only">: {blog.title}</span>
                  </Link>
                  <AddToWishlistButton blog={blog} variant="home" signedIn={signedIn} inWishlist={inWishlist.has(blog._id)} />
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-10 flex flex-wrap items-center justify-center gap-x-6 gap-y-3">
        <Link to="/allblogs" className="btn btn-outline btn-primary">See all blogs</Link>
        <a href="/feed.xml" className="link link-hover inline-flex items-center gap-1 text-sm font-semibold">
          <FeedIcon />
          Subscribe by RSS
        </a>
      </p>
    </section>
  );
}
