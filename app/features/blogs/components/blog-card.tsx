import type { ReactNode } from 'react';
import { type BlogCardJson, likedByViewer } from '../blogs.presenter';
import { LikeButton } from './like-button';
import { SearchSnippet } from './search-snippet';
import { StoryCard } from './story-card';

export interface BlogCardProps {
  blog: BlogCardJson;
  signedIn: boolean;
  /** The wishlist toggle, given by the screen: the wishlist feature builds on blogs, not the reverse. */
  wishlistButton: ReactNode;
}

/** An All blogs card (docs/product.md#all-blogs): the site's one card with the like and wishlist toggles. */
export function BlogCard({ blog, signedIn, wishlistButton }: BlogCardProps) {
  return (
    <StoryCard
      blog={blog}
      testId="blog-card"
      extra={blog.snippet ? <SearchSnippet html={blog.snippet} /> : null}
      actions={
        <>
          <LikeButton blogId={blog._id} likes={blog.likes} liked={likedByViewer(blog)} signedIn={signedIn} />
          {wishlistButton}
        </>
      }
    />
  );
}
