import { type RouteConfig, index, route } from '@react-router/dev/routes';

// Spec §2's route table. React Router matches paths case-insensitively, so /wishList and
// /wishlist are one screen (BRIEF §2 "Wishlist paths").
export default [
  index('routes/home.tsx'),
  route('login', 'routes/login.tsx'),
  route('register', 'routes/register.tsx'),
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('profile', 'routes/profile.tsx'),
  route('update-profile', 'routes/update-profile.tsx'),
  route('allblogs', 'routes/all-blogs.tsx'),
  route('addBlog', 'routes/add-blog.tsx'),
  route('blogs/:id', 'routes/blog-detail.tsx'),
  route('blogs/:id/like', 'routes/blog-like.tsx'),
  route('updateBlog/:id', 'routes/update-blog.tsx'),
  route('wishList/:email?', 'routes/wishlist.tsx'),
  route('wishlist/add', 'routes/wishlist-add.tsx'),
  route('featuredBlogs', 'routes/featured-blogs.tsx'),
  route('featureBlog', 'routes/feature-blog-redirect.tsx'),
  route('newsletter', 'routes/newsletter.tsx'),
  route('recent', 'routes/recent.tsx'),
  route('memoryframe', 'routes/memoryframe.tsx'),
  route('counter', 'routes/counter.tsx'),
  route('feed.xml', 'routes/feed.ts', { id: 'feed-atom' }),
  route('rss.xml', 'routes/feed.ts', { id: 'feed-rss' }),
  route('categories/:category/feed.xml', 'routes/feed.ts', { id: 'category-feed-atom' }),
  route('categories/:category/rss.xml', 'routes/feed.ts', { id: 'category-feed-rss' }),
  route('robots.txt', 'routes/robots.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
