/**
 * Where a post lives: `/blogs/{id}/{slug}`, the id first so the address keeps working through a
 * rename (an old slug answers 301 to the current one) and every cache still keys the page by
 * the id; `/blogs/{id}` alone answers too (docs/decisions/069). Every link to a post is made here.
 */
export function blogPath(blog: { _id: string; slug?: string | null }): string {
  return blog.slug ? `/blogs/${blog._id}/${encodeURIComponent(blog.slug)}` : `/blogs/${blog._id}`;
}

/** The same from a row's columns (mails, the sitemap). */
export const blogPathOf = (row: { id: string; slug?: string | null }) => blogPath({ _id: row.id, slug: row.slug });
