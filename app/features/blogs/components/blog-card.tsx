import { AddToWishlistButton } from '~/features/wishlist/components/add-to-wishlist-button';
import type { BlogCardJson } from '../blog.presenter';
import { LikeButton } from './like-button';
import { StoryCard } from './story-card';

export interface BlogCardProps {
  blog: BlogCardJson;
  viewerEmail: string | null;
  inWishlist: boolean;
}

/** An All blogs card (spec §2): the site's one card with the like and wishlist toggles. */
export function BlogCard({ blog, viewerEmail, inWishlist }: BlogCardProps) {
  const signedIn = viewerEmail !== null;
  return (
    <StoryCard
      blog={blog}
      testId="blog-card"
      actions={
        <>
          <LikeButton blogId={blog._id} likes={blog.likes} liked={!!viewerEmail && blog.likedBy.includes(viewerEmail)} signedIn={signedIn} />
          <AddToWishlistButton blog={blog} variant="allblogs" signedIn={signedIn} inWishlist={inWishlist} />
        </>
      }
    />
  );
}
