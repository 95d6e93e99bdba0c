import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/auth';
import { type Browser, openBrowser } from '../support/browser';
import { type ImageServer, serve, startImageServer } from '../support/image-server';
import { photoWithSubject } from '../support/images';
import { useServer } from '../support/server';

/**
 * The Add blog page form posted with a photo address (as a script or a browser without our
 * upload script may send it), on the production build: the server fetches the picture once,
 * the blog and its sharing tags carry our copy, and a picture that cannot be fetched is refused
 * on the form. A blog saved with another address before this rule gets no sharing picture
 * (docs/decisions/050). The picture host is a real server on loopback, hence the test-only
 * IMAGE_FETCH_ALLOW_LOOPBACK.
 */
const server = useServer({ IMAGE_FETCH_ALLOW_LOOPBACK: 'on' });
let images: ImageServer;
let writer: Browser;

const FIELDS = { title: 'Lighthouse by address', category: 'Travelling & Photography', type: 'Photo', short_description: 'A beam over the rocks.', long_description: 'The keeper waved.', availability: 'Public' };
const OURS = /^\/uploads\/[0-9a-f-]{36}-1600\.webp$/;

beforeAll(async () => {
  images = await startImageServer();
  images.route('/lighthouse.jpg', serve(await photoWithSubject({ x: 30, y: 40 })));
  writer = await openBrowser();
  await signUp(writer.context, server.url, { name: 'Address Writer' });
});
afterAll(async () => {
  await writer?.close();
  await images?.close();
});

const postForm = (photo: string) =>
  writer.context.request.post(`${server.url}/addBlog`, { headers: { origin: server.url }, multipart: { ...FIELDS, photo }, maxRedirects: 0 });

const sharingTags = async (id: string) => {
  const html = await (await fetch(`${server.url}/blogs/${id}`)).text();
  const tag = (key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;
  return { html, ogImage: tag('og:image'), twitterImage: tag('twitter:image'), twitterCard: tag('twitter:card') };
};

describe('a blog photo given by address on the page form', () => {
  it('is fetched once, and the blog page and its sharing tags show our copy', async () => {
    const sent = await postForm(`${images.url}/lighthouse.jpg`);
    expect(sent.status()).toBe(302);
    expect(sent.headers().location).toBe('/allblogs');
    expect(images.requests).toEqual(['/lighthouse.jpg']);
    const [blog] = (await (await fetch(`${server.url}/api/blogs?q=lighthouse`)).json()) as { _id: string; photo: string }[];
    expect(blog!.photo).toMatch(OURS);
    const tags = await sharingTags(blog!._id);
    expect(tags.ogImage).toBe(`${server.url}${blog!.photo}`);
    expect(tags.twitterImage).toBe(tags.ogImage);
    expect((await fetch(tags.ogImage!)).headers.get('content-type')).toBe('image/webp');
  });

  it('that cannot be fetched is refused on the form with the reason, and nothing is saved', async () => {
    const before = ((await (await fetch(`${server.url}/api/blogs`)).json()) as unknown[]).length;
    const sent = await postForm(`${images.url}/gone.jpg`);
    expect(sent.status()).toBe(400);
    expect(await sent.text()).toContain('Image upload failed. Could not be fetched: its server answered 404.');
    expect(((await (await fetch(`${server.url}/api/blogs`)).json()) as unknown[]).length).toBe(before);
  });

  it('saved with another address before the rule: the page shares no picture from it', async () => {
    const [blog] = (await (await fetch(`${server.url}/api/blogs?q=lighthouse`)).json()) as { _id: string }[];
    const db = new Database(path.join(server.dataDir, 'afterglow.db'));
    try {
      db.prepare('update blogs set photo = ? where id = ?').run('https://tracker.example/pixel.gif?share=1', blog!._id);
    } finally {
      db.close();
    }
    const tags = await sharingTags(blog!._id);
    expect(tags.ogImage).toBeNull();
    expect(tags.twitterImage).toBeNull();
    expect(tags.twitterCard).toBe('summary');
    const ld = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(tags.html)?.[1] ?? '';
    expect(ld).toContain('BlogPosting');
    expect(ld).not.toContain('tracker.example');
    expect(await (await fetch(`${server.url}/feed.xml`)).text()).not.toContain('tracker.example');
  });
});
