import type { BrowserContext } from 'playwright-core';

export interface SeedBlog {
  title: string;
  category?: string;
  short_description?: string;
  availability?: 'Public' | 'Hidden';
  /** A path under the site (it is made absolute, as the image service would answer). */
  photo?: string;
}

/**
 * Writes blogs through the real API as the context's signed-in user, oldest first, so the last
 * one is the newest. Returns their ids in the same order.
 */
export async function seedBlogs(context: BrowserContext, baseUrl: string, blogs: SeedBlog[]): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, blog] of blogs.entries()) {
    const res = await context.request.post(`${baseUrl}/api/blogs`, {
      headers: { origin: baseUrl },
      data: {
        title: blog.title,
        category: blog.category ?? 'Travelling & Photography',
        type: 'written content',
        short_description: blog.short_description ?? `A short story about ${blog.title.toLowerCase()}.`,
        long_description: `# ${blog.title}\n\nA longer story.`,
        availability: blog.availability ?? 'Public',
        photo: `${baseUrl}${blog.photo ?? `/images/gallery-${(i % 8) + 1}.svg`}`,
      },
    });
    if (!res.ok()) throw new Error(`seeding a blog failed: ${res.status()} ${await res.text()}`);
    ids.push(((await res.json()) as { insertedId: string }).insertedId);
    // Distinct creation times keep "newest first" unambiguous.
    await new Promise((r) => setTimeout(r, 5));
  }
  return ids;
}

/** Adds a blog to the context user's wishlist through the API (spec §7, the All blogs payload). */
export async function seedWishlist(context: BrowserContext, baseUrl: string, blogId: string): Promise<string> {
  const res = await context.request.post(`${baseUrl}/api/wishlist`, {
    headers: { origin: baseUrl },
    data: { blogId, title: '', photo: null, email: '', category: '', likeCount: 0, description: '' },
  });
  if (!res.ok()) throw new Error(`seeding a wishlist item failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { insertedId: string }).insertedId;
}
