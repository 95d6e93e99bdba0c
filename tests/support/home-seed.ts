import type { BrowserContext } from 'playwright-core';
import sharp from 'sharp';

export interface SeedBlog {
  title: string;
  category?: string;
  short_description?: string;
  availability?: 'Public' | 'Hidden';
  /** The body (Markdown); by default a heading and one line. */
  long_description?: string;
  /** A photo as the API takes it; by default one of eight pictures uploaded through the real pipeline. */
  photo?: string;
}

/** Eight sunset colours: the blog at index i gets picture i % 8, as the gallery's eight pictures once did. */
const COLOURS = [[250, 120, 60], [240, 90, 110], [200, 80, 160], [120, 80, 200], [60, 120, 220], [40, 170, 170], [230, 180, 60], [180, 60, 60]] as const;
const uploaded = new Map<string, Promise<string>>();

/**
 * The picture seedBlogs gives the blog at `index` on the server at `baseUrl`: uploaded once per
 * server (blog photos are images of our own store, docs/decisions/050), then reused.
 */
export function seededPhoto(context: BrowserContext, baseUrl: string, index: number): Promise<string> {
  const key = `${baseUrl} ${index % COLOURS.length}`;
  let url = uploaded.get(key);
  if (!url) {
    url = (async () => {
      const [r, g, b] = COLOURS[index % COLOURS.length]!;
      const buffer = await sharp({ create: { width: 160, height: 100, channels: 3, background: { r, g, b } } }).jpeg().toBuffer();
      const res = await context.request.post(`${baseUrl}/api/images`, { headers: { origin: baseUrl }, multipart: { image: { name: 'seed.jpg', mimeType: 'image/jpeg', buffer } } });
      if (!res.ok()) throw new Error(`uploading a seed photo failed: ${res.status()} ${await res.text()}`);
      return ((await res.json()) as { data: { url: string } }).data.url;
    })();
    uploaded.set(key, url);
    // A failed upload is not kept: the next call tries again.
    url.catch(() => uploaded.delete(key));
  }
  return url;
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
        long_description: blog.long_description ?? `# ${blog.title}\n\nA longer story.`,
        availability: blog.availability ?? 'Public',
        photo: blog.photo ?? (await seededPhoto(context, baseUrl, i)),
      },
    });
    if (!res.ok()) throw new Error(`seeding a blog failed: ${res.status()} ${await res.text()}`);
    ids.push(((await res.json()) as { insertedId: string }).insertedId);
    // Distinct creation times keep "newest first" unambiguous.
    await new Promise((r) => setTimeout(r, 5));
  }
  return ids;
}

/** Adds a blog to the context user's wishlist through the API (the All blogs payload of POST /wishlist). */
export async function seedWishlist(context: BrowserContext, baseUrl: string, blogId: string): Promise<string> {
  const res = await context.request.post(`${baseUrl}/api/wishlist`, {
    headers: { origin: baseUrl },
    data: { blogId, title: '', photo: null, email: '', category: '', likeCount: 0, description: '' },
  });
  if (!res.ok()) throw new Error(`seeding a wishlist item failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { insertedId: string }).insertedId;
}
