/** The spec's user-facing texts, verbatim (spec §2, §5, §8). Used everywhere; never retyped. */
export const MESSAGES = {
  notFoundHeading: 'No Page found!',
  notFoundText: 'Opps!! No Content Found With the route.',
  backToHome: 'Back To Home',
  logIn: 'Log In',
  defaultDisplayName: 'User',
  profile: 'Profile',
  logout: 'Logout',
  loginRequired: 'Login required',
  noUserLoggedIn: 'No user logged in.',
  heroTagline: 'Where Every Story Shines!',
  heroSubline: "From Travel Tales to Tech Tips, It's All Here...",
  allBlogsHeading: 'All blogs',
  featuredHeading: 'Our Top 10 Featured Picks for You!',
  myProfile: 'My Profile',
  newsletterHeading: 'Never Miss a New Story!',
  noComments: 'No comments yet. Be the first to comment!',
  emptyWishlist: 'No blogs in your wishlist yet!',
  wishlistHeading: (count: number) => `My Wishlist : ${count}`,
  loggedOutTitle: 'Logged Out',
  loggedOutText: 'You have been successfully logged out',
  serverError: 'Something went wrong on our side. Please try again in a moment.',
  apiNotFound: 'Not found',
  malformedJson: 'Malformed JSON body',
} as const;

/** The footer's description of the product (spec §1). */
export const SITE_DESCRIPTION =
  'A blogging page where people share and read various kinds of blogs: travel tales, tech tips, recipes, crafts and more.';
