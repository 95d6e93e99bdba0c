import { AddToWishlistButton } from '~/features/wishlist/components/add-to-wishlist-button';
import { type BlogCardJson, likedByViewer } from '../blog.presenter';
import { LikeButton } from './like-button';
import { StoryCard } from './story-card';

export interface BlogCardProps {
  blog: BlogCardJson;
  signedIn: boolean;
  inWishlist: boolean;
}

/** An All blogs card (spec §2): the site's one card with the like and wishlist toggles. */
export function BlogCard({ blog, signedIn, inWishlist }: BlogCardProps) {
  return (
    <StoryCard
      blog={blog}
      testId="blog-card"
      actions={
        <>
          <LikeButton blogId={blog._id} likes={blog.likes} liked={likedByViewer(blog)} signedIn={signedIn} />
          <AddToWishlistButton blog={blog} variant="allblogs" signedIn={signedIn} inWishlist={inWishlist} />
        </>
      }
    />
  );
}
