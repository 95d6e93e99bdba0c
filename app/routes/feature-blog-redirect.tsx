import { redirect } from 'react-router';

// The footer's /featureBlog and the navigation's /featuredBlogs are one screen (docs/product.md#footer).
export function loader() {
  return redirect('/featuredBlogs', 301);
}
