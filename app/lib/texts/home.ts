/**
 * The home page and the blog cards of every list (wishlist and like buttons).
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const heroTagline = 'Where Every Story Shines!';
export const heroSubline = "From Travel Tales to Tech Tips, It's All Here...";
export const postedOn = 'Posted on';
export const addToWishlist = 'Add to Wishlist';
export const loginRequired = 'Login required';
export const loginToLike = 'Please login to like a blog.';
export const loginToWishlist = 'Please login to add to wishlist.';
export const alreadyAddedTitle = 'Already Added!';
export const alreadyAddedText = 'This blog is already in your wishlist.';
export const homeWishlistSuccess = 'Succesfully added to wishlist!';
export const wishlistAdded = 'Added to wishlist!';
export const likeSuccess = 'Liked successfully!';
