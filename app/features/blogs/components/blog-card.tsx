import { Link } from 'react-router';
import { HiddenBadge } from '~/components/hidden-badge';
import { AddToWishlistButton } from '~/features/wishlist/components/add-to-wishlist-button';
import type { BlogCardJson } from '../blog.presenter';
import { BlogPhoto } from './blog-photo';
import { LikeButton } from './like-button';
import { SearchSnippet } from './search-snippet';

export interface BlogCardProps {
  blog: BlogCardJson;
  viewerEmail: string | null;
  inWishlist: boolean;
}

/** An All blogs card (spec §2): photo, category chip, title, short description, wishlist, like, details. */
export function BlogCard({ blog, viewerEmail, inWishlist }: BlogCardProps) {
  const signedIn = viewerEmail !== null;
  return (
    <article className="card h-full overflow-hidden bg-base-200 shadow-md ring-1 ring-base-300" data-testid="blog-card" aria-labelledby={`blog-${blog._id}`}>
      <figure className="aspect-[16/10] bg-base-300">
        {blog.photo ? (
          <BlogPhoto src={blog.photo} sizes="(min-width: 1024px) 370px, (min-width: 768px) 50vw, 100vw" className="h-full w-full object-cover" />
        ) : null}
      </figure>
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="badge badge-secondary badge-outline">{blog.category}</span>
          {blog.availability === 'Hidden' ? <HiddenBadge /> : null}
        </div>
        <h2 id={`blog-${blog._id}`} className="card-title text-xl leading-snug">
          {blog.title}
        </h2>
        <p className="line-clamp-3 text-sm opacity-85">{blog.short_description}</p>
        {blog.snippet ? <SearchSnippet html={blog.snippet} /> : null}
        <div className="card-actions mt-auto flex-wrap items-center justify-between gap-2 pt-2">
          <LikeButton blogId={blog._id} likes={blog.likes} liked={!!viewerEmail && blog.likedBy.includes(viewerEmail)} signedIn={signedIn} />
          <AddToWishlistButton blog={blog} variant="allblogs" signedIn={signedIn} inWishlist={inWishlist} />
          <Link to={`/blogs/${blog._id}`} className="btn btn-primary btn-sm" aria-label={`Details: ${blog.title}`}>
            Details
          </Link>
        </div>
      </div>
    </article>
  );
}
