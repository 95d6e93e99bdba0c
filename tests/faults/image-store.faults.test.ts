import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { S3ImageStore } from '~/features/images/image-store.server';
import { apiSession } from '../support/auth';
import { type RunningServer, startServer } from '../support/server';
import { startLocalS3 } from '../support/s3';

// The image store failing in the middle of creating a blog, through both ways a blog is made:
// the API (POST /api/images, then POST /api/blogs with its URL) and the Add blog page posted
// without JavaScript (upload and create in one request). Whatever fails, the writer gets a clear
// 503/507 message, no blog row exists, and no stored object is left behind.

const root = path.resolve(import.meta.dirname, '../..');
const BLOG = { title: 'A blog that must not exist', category: 'Personal', type: 'written content', short_description: 'Short', long_description: 'Long', availability: 'Public' };

/** Random pixels: WebP cannot squeeze them, so every width is tens to hundreds of kilobytes. */
const noisyJpeg = () => {
  const [width, height] = [1800, 1200];
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
};

interface Attempt {
  status: number;
  text: string;
}

async function viaApi(server: RunningServer, cookie: string, image: Buffer): Promise<Attempt> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
  const uploaded = await fetch(`${server.url}/api/images`, { method: 'POST', headers: { cookie, origin: server.url }, body: form });
  if (!uploaded.ok) return { status: uploaded.status, text: await uploaded.text() };
  // Only reached if the store did not fail: the blog is made with the stored URL.
  const { data } = (await uploaded.json()) as { data: { url: string } };
  const created = await fetch(`${server.url}/api/blogs`, {
    method: 'POST',
    headers: { cookie, origin: server.url, 'content-type': 'application/json' },
    body: JSON.stringify({ ...BLOG, photo: data.url }),
  });
  return { status: created.status, text: await created.text() };
}

async function viaPage(server: RunningServer, cookie: string, image: Buffer): Promise<Attempt> {
  const form = new FormData();
  for (const [k, v] of Object.entries(BLOG)) form.append(k, v);
  form.append('image', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${server.url}/addBlog`, { method: 'POST', headers: { cookie, origin: server.url }, body: form, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
}

function expectClearRefusal(attempt: Attempt, statuses: number[], words: RegExp) {
  expect(statuses, attempt.text.slice(0, 300)).toContain(attempt.status);
  expect(attempt.text).toMatch(words);
  expect(attempt.text).not.toMatch(/\n\s+at |node:internal|Error:/);
}

function blogRows(dataDir: string): number {
  const db = new Database(path.join(dataDir, 'afterglow.db'), { readonly: true });
  try {
    return (db.prepare('select count(*) as n from blogs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** `npm run sweep:uploads` with no grace period. Asynchronous: s3rver answers from this process. */
async function sweepNow(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['scripts/sweep-uploads.js', '--grace-hours', '0'], { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'warn' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`sweep failed: ${err}`);
  return out.trim();
}

const totals = { attempts: 0, rows: 0, orphans: 0, cases: [] as string[] };
afterAll(() => {
  if (totals.attempts) console.log(`image-store faults: ${totals.rows} blog rows, ${totals.orphans} orphans / ${totals.attempts} attempts (${totals.cases.join(', ')})`);
});

describe('the S3 store going away mid-create', () => {
  it('answers 503 with a clear message, creates no blog and leaves no object behind', async () => {
    const s3 = await startLocalS3();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'afterglow-s3fault-'));
    const env = { ...s3.env, DATA_DIR: dataDir };
    const server = await startServer(env);
    const store = new S3ImageStore({ DATA_DIR: dataDir, S3_REGION: 'us-east-1', ...s3.env, S3_ENDPOINT: s3.endpoint, S3_BUCKET: s3.bucket });
    const objects = async () => {
      const names = [];
      for await (const o of store.list()) names.push(o.name);
      return names;
    };
    try {
      const { cookie } = await apiSession(server.url, { email: 's3@faults.test', name: 'S3 Fault' });
      const image = await noisyJpeg();

      // Stopped before the request: nothing can be written at all.
      await s3.stop();
      for (const attempt of [viaApi, viaPage]) {
        expectClearRefusal(await attempt(server, cookie, image), [503], /could not be stored just now/);
        totals.attempts++;
      }
      await s3.start();
      expect(await objects()).toEqual([]);

      // Stopping after the first width of the set was written: the rest fail.
      for (const attempt of [viaApi, viaPage]) {
        const stopped = s3.stopAfterWrites(1);
        expectClearRefusal(await attempt(server, cookie, image), [503], /could not be stored just now/);
        await stopped;
        totals.attempts++;
        await s3.start();
      }
      const writtenBeforeStop = (await objects()).length;
      // What was written just before the store went away could not be removed while it was away:
      // the sweep removes it once the store is back.
      const swept = await sweepNow(env);
      const left = await objects();
      const rows = blogRows(dataDir);
      console.log(`image-store faults: s3 stopped before and mid-set, ${writtenBeforeStop} objects it stored before it stopped without the app hearing back, after the sweep ${left.length} left (${swept})`);
      totals.rows += rows;
      totals.orphans += left.length;
      totals.cases.push('s3 stopped', 's3 stopping mid-set');
      expect(rows).toBe(0);
      expect(left).toEqual([]);

      // And once it is back, the same request works.
      expect((await viaApi(server, cookie, image)).status).toBe(201);
    } finally {
      await server.stop();
      await s3.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

// DATA_DIR on a small tmpfs of its own, as in the SQLite disk-full test.
const diskDir = mkdtempSync(path.join(tmpdir(), 'afterglow-imgfull-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', diskDir]).status === 0;
if (!mounted) console.log('Image disk-full fault test skipped: this machine does not let us mount a tmpfs.');
afterAll(() => {
  if (mounted) spawnSync('umount', [diskDir]);
  rmSync(diskDir, { recursive: true, force: true });
});

/** Fills the disk, then frees `spare` bytes: room for a small width, not for the whole set. */
function fillDisk(file: string, spare: number) {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(256 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  ftruncateSync(fd, Math.max(0, statSync(file).size - spare));
  closeSync(fd);
}

describe.runIf(mounted)('the local image disk filling up mid-create', () => {
  it('answers 507 with a clear message, creates no blog and leaves no file behind', async () => {
    const server = await startServer({ DATA_DIR: diskDir });
    const uploads = path.join(diskDir, 'uploads');
    const files = () => (existsSync(uploads) ? readdirSync(uploads) : []);
    try {
      const { cookie } = await apiSession(server.url, { email: 'full@faults.test', name: 'Image Filler' });
      const image = await noisyJpeg();
      const filler = path.join(diskDir, 'filler');
      fillDisk(filler, 320 * 1024);
      for (const attempt of [viaApi, viaPage]) {
        expectClearRefusal(await attempt(server, cookie, image), [507], /no room left to store images/);
        totals.attempts++;
      }
      const left = files();
      const rows = blogRows(diskDir);
      totals.rows += rows;
      totals.orphans += left.length;
      totals.cases.push('disk full');
      expect(rows).toBe(0);
      expect(left).toEqual([]);
      // Space returns: the same request works, without a restart.
      rmSync(filler);
      expect((await viaApi(server, cookie, image)).status).toBe(201);
      expect(files()).toHaveLength(3);
    } finally {
      await server.stop();
    }
  });
});
