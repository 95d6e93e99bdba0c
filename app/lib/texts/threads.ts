/**
 * Threaded comments: replies, likes, pin and hide (docs/decisions/060). The spec's own comment
 * texts stay in blogs.ts.
 */
export const deletedComment = '[deleted]';
export const authorBadge = 'Author';
export const pinnedBadge = 'Pinned';
export const hiddenBadge = 'Hidden by the writer';
export const reply = 'Reply';
export const replyLabel = 'Your reply';
export const postReply = 'Post Reply';
export const replyPosted = 'Reply posted';
export const continueThread = 'Continue this thread';
export const backToPost = 'Back to the post';
export const likeComment = 'Like';
export const unlikeComment = 'Unlike';
export const pinComment = 'Pin';
export const unpinComment = 'Unpin';
export const hideComment = 'Hide';
export const unhideComment = 'Show again';
export const commentPinned = 'Comment pinned';
export const commentUnpinned = 'Comment unpinned';
export const commentHidden = 'Comment hidden';
export const commentUnhidden = 'Comment shown again';
export const cantLikeOwnComment = "You can't like your own comment.";
export const onlyWriterPinsOrHides = 'Only the writer of the post can pin or hide its comments.';
export const onlyTopLevelPinned = 'Only a comment, not a reply, can be pinned.';
export const cantPinHidden = 'A hidden comment cannot be pinned.';
export const cantReplyThere = 'That comment can no longer be answered.';
export const threadHeading = 'Thread';
