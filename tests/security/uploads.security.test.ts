import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}
/** A small file whose header claims 16000×16000 pixels: a decompression bomb's calling card. */
function pngBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16000, 0);
  ihdr.writeUInt32BE(16000, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // truecolour
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(64 * 1024))), chunk('IEND', Buffer.alloc(0))]);
}

describe('uploads', () => {
  let t: TestApp;
  let user: TestUser;
  const uploadsDir = () => path.join(t.scratch.dataDir, 'uploads');
  const files = () => {
    try {
      return readdirSync(uploadsDir());
    } catch {
      return [];
    }
  };
  beforeAll(async () => {
    t = await createTestApp('sqlite', { MAX_UPLOAD_MB: '2' });
    user = await t.createUser();
  });
  afterAll(async () => t?.close());

  const upload = (bytes: Buffer | string, filename: string, type: string, extra?: (form: FormData) => void) => {
    const form = new FormData();
    form.append('image', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), filename);
    extra?.(form);
    return t.request('/api/images', { method: 'POST', body: form, headers: { authorization: `Bearer ${user.token}` } });
  };

  it('refuses or neutralises every hostile upload and leaves no file behind', async () => {
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c2255c' } }).jpeg().toBuffer();
    const refused: [string, () => Promise<Response>][] = [
      ['text renamed .jpg', () => upload('hello, I am text', 'photo.jpg', 'image/jpeg')],
      ['SVG with a script renamed .png', () => upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'sun.png', 'image/png')],
      ['HTML renamed .gif', () => upload('<html><script>alert(1)</script></html>', 'a.gif', 'image/gif')],
      ['an oversized body', () => upload(Buffer.alloc(3 * 1024 * 1024, 1), 'big.png', 'image/png')],
      ['a 16000×16000 PNG bomb', () => upload(pngBomb(), 'bomb.png', 'image/png')],
      ['many multipart parts', () => upload(jpeg, 'ok.jpg', 'image/jpeg', (form) => { for (let i = 0; i < 2000; i++) form.append(`f${i}`, 'x'); })],
      ['an empty file', () => upload(Buffer.alloc(0), 'empty.png', 'image/png')],
    ];
    const before = files().length;
    const results: string[] = [];
    for (const [name, send] of refused) {
      const started = performance.now();
      const res = await send();
      const ms = performance.now() - started;
      results.push(`${name}: ${res.status}`);
      expect(res.status, name).toBeGreaterThanOrEqual(400);
      expect(res.status, name).toBeLessThan(500);
      expect(typeof ((await res.json()) as { message: string }).message).toBe('string');
      if (name.includes('bomb')) console.log(`uploads: the bomb was refused in ${ms.toFixed(0)} ms`);
    }
    expect(files().length).toBe(before);

    // Accepted but neutralised: a polyglot and hostile names become a clean, server-named WebP.
    const polyglot = Buffer.concat([jpeg, Buffer.from('<html><script>alert(1)</script></html>')]);
    for (const [name, filename] of [['JPEG with appended HTML', 'x.jpg'], ['../ in the name', '../../../evil.jpg'], ['NUL in the name', 'a\u0000.php.jpg']] as const) {
      const res = await upload(polyglot, filename, 'image/jpeg');
      expect(res.status, name).toBe(201);
      const { data } = (await res.json()) as { data: { url: string } };
      expect(data.url).toMatch(/^\/uploads\/[A-Za-z0-9_-]+-\d+\.webp$/);
      results.push(`${name}: stored as ${path.basename(data.url)}`);
    }
    for (const file of files()) {
      const bytes = readFileSync(path.join(uploadsDir(), file));
      expect(bytes.subarray(0, 4).toString('ascii'), file).toBe('RIFF');
      expect(bytes.includes(Buffer.from('<script')), file).toBe(false);
    }
    expect(readdirSync(t.scratch.dataDir).filter((f) => f.includes('evil'))).toEqual([]);
    console.log(`uploads: ${refused.length} hostile uploads refused, 3 neutralised, 0 stray files (${results.join('; ')})`);
  });
});
