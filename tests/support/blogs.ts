import type { BrowserContext, Page } from 'playwright-core';
import { jpegImage } from './images';

export interface SeedBlog {
  title: string;
  category: string;
  type: string;
  short_description: string;
  long_description: string;
  details?: string;
  availability: 'Public' | 'Hidden';
  photo: string;
}

/** Uploads a generated JPEG through the real pipeline as the context's signed-in user. */
export async function uploadPhoto(context: BrowserContext, baseUrl: string, bytes?: Buffer): Promise<string> {
  const res = await context.request.post(`${baseUrl}/api/images`, {
    headers: { origin: baseUrl },
    multipart: { image: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: bytes ?? (await jpegImage(1000, 625)) } },
  });
  if (!res.ok()) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

/** Creates a blog through the API as the context's signed-in user; answers its id. */
export async function seedBlog(context: BrowserContext, baseUrl: string, blog: Partial<SeedBlog> & { photo: string }): Promise<string> {
  const res = await context.request.post(`${baseUrl}/api/blogs`, {
    headers: { origin: baseUrl },
    data: {
      title: 'A seeded sunset',
      category: 'Travelling & Photography',
      type: 'written content',
      short_description: 'Seeded for a browser test.',
      long_description: 'Seeded **long** description.',
      availability: 'Public',
      ...blog,
    },
  });
  if (!res.ok()) throw new Error(`blog creation failed: ${res.status()} ${await res.text()}`);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

/** Fills the Add/Edit blog form's text fields and choices (not the image). */
export async function fillBlogForm(page: Page, title: string) {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption('Travelling & Photography');
  await page.getByLabel('Type').selectOption('Photo');
  await page.getByLabel('Short description').fill('Orange water and a purple sky.');
  await page.getByLabel('Long description').fill('## On the pier\n\nWe stayed **until** the last light.\n\n- sand\n- salt');
  await page.getByLabel('Availability').selectOption('Public');
}
