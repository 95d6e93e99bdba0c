import type { BlogCardJson } from '~/features/blogs/blogs.presenter';
import { BlogCard } from '~/features/blogs/components/blog-card';
import { AddToWishlistButton } from './add-to-wishlist-button';

/**
 * A page of All blogs cards, each with its like and wishlist toggles (docs/product.md#all-blogs):
 * All blogs and a tag's page show the same grid. `busy`: a new page of results is on its way.
 */
export function CardGrid({ blogs, signedIn, wished, busy }: { blogs: BlogCardJson[]; signedIn: boolean; wished: ReadonlySet<string>; busy?: boolean }) {
  return (
    <ul className="mt-8 grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy={busy} data-testid="blog-grid">
      {blogs.map((blog) => (
        <li key={blog._id}>
          <BlogCard blog={blog} signedIn={signedIn} wishlistButton={<AddToWishlistButton blog={blog} variant="allblogs" signedIn={signedIn} inWishlist={wished.has(blog._id)} />} />
        </li>
      ))}
    </ul>
  );
}
