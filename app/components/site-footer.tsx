import { Link } from 'react-router';
import { SITE_DESCRIPTION } from '~/lib/texts/messages';

/** Footer (docs/product.md#footer): links incl. /featureBlog and, signed in, /wishList/{email}; description; year. */
export function SiteFooter({ wishlistPath, siteName }: { wishlistPath: string | null; siteName: string }) {
  const year = new Date().getFullYear();
  return (
    <footer className="mt-16 border-t border-base-300 bg-base-200 text-base-content">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2">
        <div>
          <p className="text-lg font-bold">{siteName}</p>
          <p className="mt-2 max-w-prose text-sm opacity-90" data-testid="footer-description">{SITE_DESCRIPTION}</p>
        </div>
        <nav aria-label="Footer">
          <ul className="grid grid-cols-2 gap-2 text-sm">
            <li><Link className="link link-hover" to="/">Home</Link></li>
            <li><Link className="link link-hover" to="/allblogs">All Blogs</Link></li>
            <li><Link className="link link-hover" to="/featureBlog">Featured Blogs</Link></li>
            <li><Link className="link link-hover" to="/addBlog">Add Blog</Link></li>
            {wishlistPath ? (
              <li><Link className="link link-hover" to={wishlistPath}>My Wishlist</Link></li>
            ) : null}
            <li><a className="link link-hover" href="/feed.xml">RSS feed</a></li>
          </ul>
        </nav>
      </div>
      <p className="border-t border-base-300 py-4 text-center text-sm opacity-90">
        Copyright © <span data-testid="footer-year">{year}</span> {siteName}. All rights reserved.
      </p>
    </footer>
  );
}
