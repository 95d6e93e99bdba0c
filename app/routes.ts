import { type RouteConfig, index, route } from '@react-router/dev/routes';

// Spec §2's route table. React Router matches paths case-insensitively, so /wishList and
// /wishlist are one screen (BRIEF §2 "Wishlist paths").
export default [
  index('routes/home.tsx'),
  route('login', 'routes/login.tsx'),
  route('register', 'routes/register.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('profile', 'routes/profile.tsx'),
  route('update-profile', 'routes/update-profile.tsx'),
  route('allblogs', 'routes/all-blogs.tsx'),
  route('addBlog', 'routes/add-blog.tsx'),
  route('blogs/:id', 'routes/blog-detail.tsx'),
  route('updateBlog/:id', 'routes/update-blog.tsx'),
  route('wishList/:email?', 'routes/wishlist.tsx'),
  route('featuredBlogs', 'routes/featured-blogs.tsx'),
  route('featureBlog', 'routes/feature-blog-redirect.tsx'),
  route('newsletter', 'routes/newsletter.tsx'),
  route('recent', 'routes/recent.tsx'),
  route('memoryframe', 'routes/memoryframe.tsx'),
  route('counter', 'routes/counter.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
