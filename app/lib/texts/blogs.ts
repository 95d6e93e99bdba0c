/**
 * Blogs: reading, writing, comments, lists and the wishlist screen.
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const allBlogsHeading = 'All blogs';
export const search = 'Search';
export const updateBlog = 'Update Blog';
export const leaveComment = 'Leave a Comment';
export const noComments = 'No comments yet. Be the first to comment!';
export const keepCurrentImage = 'Current image will be kept if no file is selected.';
export const wishlistHeading = (count: number) => `My Wishlist : ${count}`;
export const emptyWishlist = 'No blogs in your wishlist yet!';
/** The way on from an empty list (wishlist, following): to the blogs. */
export const startReading = 'Start reading';
/** The way on from a writer's own empty author page. */
export const writeStory = 'Write a story';
export const featuredHeading = 'Our Top 10 Featured Picks for You!';
export const cantCommentOwn = "You can't comment on your own post 😥";
export const onlyOwnerUpdate = "You can't update this blog!Only Owner is allowed to Update.";
export const imageUploadFailed = 'Image upload failed.';
export const imageStoreUnavailable = 'Your image could not be stored just now, so nothing was saved. Please try again in a moment.';
export const imageStoreFull = 'There is no room left to store images, so nothing was saved. Please try again later.';
export const deleteConfirmTitle = 'Are you sure?';
export const deleteConfirmText = "You won't be able to revert this!";
export const deleteConfirmButton = 'Yes, delete it!';
export const deletedTitle = 'Deleted!';
export const deletedText = 'Blog has been removed from wishlist.';
export const deleteErrorTitle = 'Error!';
export const deleteErrorText = 'Failed to delete blog';
export const addBlogSuccess = 'Your Blog added successfully!';
export const addBlogErrorTitle = 'Upload Failed';
export const updateBlogSuccess = 'Your blog has been updated';
export const updateBlogErrorTitle = 'Update Failed';
export const commentSuccess = 'Comment posted successfully';
export const commentError = 'Failed to comment 😥';
export const blogNotFound = 'Blog not found';
export const authorNotFound = 'Author not found';
export const blogDeleted = 'Your blog has been deleted.';
export const deleteBlog = 'Delete Blog';
export const imageFormatRefused = 'image: must be a JPEG, PNG, WebP or GIF image';
export const cancel = 'Cancel';
export const edited = 'edited';
export const commentNotFound = 'Comment not found';
export const onlyCommentAuthor = 'Only its author can edit a comment.';
export const onlyCommentAuthorOrBlogOwner = 'Only its author or the owner of the blog can delete a comment.';
export const editComment = 'Edit';
export const deleteComment = 'Delete';
export const saveComment = 'Save';
export const commentUpdated = 'Comment updated';
export const commentDeleted = 'Comment deleted';
/** A body the renderer could not finish within its time bound (docs/decisions/047). */
export const bodyUnrenderable = 'This text could not be laid out in time, so nothing was saved. Simplify its formatting (long runs of *, _, [, > or `) and try again.';
export const previewUnrenderable = 'This text could not be laid out in time for a preview. Simplify its formatting (long runs of *, _, [, > or `) and try again.';
export const bodyUnavailable = "This blog's text cannot be shown right now. Please try again in a moment.";
