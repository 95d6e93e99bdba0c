import { existsSync, readdirSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnDialects } from '#test/dialects';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import {
  decompressionBomb,
  gifImage,
  jpegImage,
  pngImage,
  SVG_IMAGE,
  sidewaysJpegWithExif,
  TEXT_FILE,
  webpImage,
} from '../../../tests/support/images';
import { type LocalS3, startLocalS3 } from '../../../tests/support/s3';
import { uploadsDir } from '../../../app/features/images/image-store.server';
import { imageSrcSet } from '../../../app/features/images/images.schema';

const form = (bytes: Buffer, name: string, type: string, field = 'image') => {
  const body = new FormData();
  body.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return body;
};

type UploadAnswer = { success: boolean; data: { url: string } };

function upload(t: TestApp, user: TestUser | null, body: FormData | ReadableStream, headers: Record<string, string> = {}) {
  return t.request('/api/images', {
    method: 'POST',
    headers: { ...(user ? { cookie: user.cookie } : {}), ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

describeOnDialects('image pipeline on local disk (%s)', { MAX_UPLOAD_MB: '1' }, (t) => {
  let user: TestUser;

  beforeAll(async () => {
    user = await t.createUser();
  });
  const storedFiles = () => (existsSync(uploadsDir(t.deps.config)) ? readdirSync(uploadsDir(t.deps.config)).sort() : []);

  it('refuses anonymous uploads', async () => {
    expect((await upload(t, null, form(await pngImage(), 'a.png', 'image/png'))).status).toBe(401);
  });

  it('re-encodes a JPEG upright to WebP at 400/800/1600 without its EXIF, served immutable and nosniff', async () => {
    const res = await upload(t, user, form(await sidewaysJpegWithExif(), 'holiday.jpg', 'image/jpeg'));
    expect(res.status).toBe(201);
    const answer = (await res.json()) as UploadAnswer;
    expect(answer.success).toBe(true);
    expect(answer.data.url).toMatch(/^\/uploads\/[0-9a-f-]{36}-1600\.webp$/);
    expect(answer.data.url).not.toContain('holiday');
    const srcset = imageSrcSet(answer.data.url)!;
    const urls = srcset.split(', ').map((entry) => entry.split(' ')[0]!);
    expect(urls).toHaveLength(3);
    for (const url of urls) {
      const served = await t.request(url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      // Stored sideways as 300×200 with orientation 6: upright it is 200 wide and 300 high.
      expect([meta.width, meta.height]).toEqual([200, 300]);
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }
  });

  it('scales large images down to each width', async () => {
    const res = await upload(t, user, form(await jpegImage(2000, 1000), 'wide.jpg', 'image/jpeg'));
    const { data } = (await res.json()) as UploadAnswer;
    const widths = [];
    for (const entry of imageSrcSet(data.url)!.split(', ')) {
      const served = await t.request(entry.split(' ')[0]!);
      widths.push((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width);
    }
    expect(widths).toEqual([400, 800, 1600]);
  });

  it.each([
    ['PNG', () => pngImage(), 'image/png'],
    ['WebP', () => webpImage(), 'image/webp'],
    ['GIF', () => gifImage(), 'image/gif'],
  ])('accepts %s', async (_name, make, type) => {
    const res = await upload(t, user, form(await make(), 'picture', type));
    expect(res.status).toBe(201);
  });

  it.each([
    ['an SVG renamed .png', SVG_IMAGE, 'evil.png', 'image/png'],
    ['an SVG', SVG_IMAGE, 'evil.svg', 'image/svg+xml'],
    ['a text file renamed .png', TEXT_FILE, 'notes.png', 'image/png'],
    ['a truncated JPEG', Buffer.from('ffd8ffe000104a46494600', 'hex'), 'cut.jpg', 'image/jpeg'],
  ])('refuses %s and stores nothing', async (_name, bytes, name, type) => {
    const before = storedFiles();
    const res = await upload(t, user, form(bytes, name, type));
    expect(res.status).toBe(415);
    expect(storedFiles()).toEqual(before);
    expect(await res.json()).toMatchObject({ message: 'image: must be a JPEG, PNG, WebP or GIF image', code: 'unsupported_media_type' });
  });

  it('refuses a decompression bomb from its header, fast', async () => {
    const bomb = await decompressionBomb();
    const started = performance.now();
    const before = storedFiles();
    const res = await upload(t, user, form(bomb, 'bomb.png', 'image/png'));
    expect(res.status).toBe(413);
    expect(storedFiles()).toEqual(before);
    expect(((await res.json()) as { message: string }).message).toBe('image: must be at most 40 megapixels');
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a declared body over MAX_UPLOAD_MB with 413 before reading it', async () => {
    let pulled = 0;
    // A body that would never end: only an answer given before reading it can finish the test.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await upload(t, user, endless, { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(5 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toBe('image: must be at most 1 MB');
    expect(pulled).toBeLessThan(3);
  });

  it('cuts off an undeclared (chunked) body as soon as it passes the limit', async () => {
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const res = await upload(t, user, endless, { 'content-type': 'multipart/form-data; boundary=x' });
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });

  it('refuses a file over MAX_UPLOAD_MB inside a form', async () => {
    const noise = await sharp(Buffer.alloc(900 * 900 * 3, 0).map(() => Math.floor(Math.random() * 256)), {
      raw: { width: 900, height: 900, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(1024 * 1024);
    expect((await upload(t, user, form(noise, 'big.png', 'image/png'))).status).toBe(413);
  });

  it('asks for the image field', async () => {
    const res = await upload(t, user, form(await pngImage(), 'a.png', 'image/png', 'picture'));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^image:/);
  });

  it('serves only names the pipeline generates', async () => {
    for (const path of ['/uploads/..%2Fafterglow.db', '/uploads/afterglow.db', '/uploads/session-secret']) {
      expect((await t.request(path)).status, path).toBe(404);
    }
  });
});

describe('image pipeline on S3-compatible storage', () => {
  let s3: LocalS3;
  let t: TestApp;

  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await createTestApp('sqlite', s3.env);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('stores every width in the bucket and answers its public URL', async () => {
    const user = await t.createUser();
    const res = await upload(t, user, form(await jpegImage(), 'bay.jpg', 'image/jpeg'));
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as UploadAnswer;
    expect(data.url.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
    for (const entry of imageSrcSet(data.url)!.split(', ')) {
      const [url, width] = entry.split(' ');
      const stored = await fetch(url!);
      expect(stored.status).toBe(200);
      expect(stored.headers.get('content-type')).toBe('image/webp');
      expect(stored.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
      expect(`${meta.width}w`).toBe(width === '1600w' ? '1200w' : width);
    }
    // Nothing lands on local disk when S3 is configured.
    expect((await t.request(data.url.replace(/^.*\//, '/uploads/'))).status).toBe(404);
  });
});
