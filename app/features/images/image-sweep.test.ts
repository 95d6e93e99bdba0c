import { randomUUID } from 'node:crypto';
import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS } from '#test/databases';
import { createTestApp, type TestApp, type TestUser } from '#test/test-app';
import { jpegImage } from '../../../tests/support/images';
import { type LocalS3, startLocalS3 } from '../../../tests/support/s3';
import { imageStoreFor, uploadsDir } from './image-store.server';
import { sweepOrphanedImages, UPLOAD_GRACE_MS } from './image-sweep.service.server';
import { storedImageId } from './images.service.server';

const DAY_AND_AN_HOUR = UPLOAD_GRACE_MS + 60 * 60 * 1000;

async function upload(t: TestApp, user: TestUser): Promise<string> {
  const body = new FormData();
  body.append('image', new Blob([new Uint8Array(await jpegImage(900, 600))], { type: 'image/jpeg' }), 'a.jpg');
  const res = await t.request('/api/images', { method: 'POST', headers: { cookie: user.cookie }, body });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { url: string } }).data.url;
}

async function storedIds(t: TestApp): Promise<Set<string | null>> {
  const ids = new Set<string | null>();
  for await (const object of imageStoreFor(t.deps.config).list()) ids.add(storedImageId(object.name.replace(/\.tmp$/, '')));
  return ids;
}

/** The sweep as it runs a day and an hour from now, when every upload of this test is past its grace. */
const sweepLater = (t: TestApp) =>
  sweepOrphanedImages({ ...t.context(null), now: () => new Date(Date.now() + DAY_AND_AN_HOUR) }, imageStoreFor(t.deps.config));

const stores: [string, 'sqlite' | 'postgres', boolean][] = [
  ...TEST_DIALECTS.map((d): [string, 'sqlite' | 'postgres', boolean] => [`local disk, ${d}`, d, false]),
  ['S3-compatible storage, sqlite', 'sqlite', true],
];

describe.each(stores)('orphaned upload sweep on %s', (_name, dialect, onS3) => {
  let t: TestApp;
  let s3: LocalS3 | undefined;
  let writer: TestUser;
  let reader: TestUser;
  const url: Record<'blog' | 'wishlistCopy' | 'avatar' | 'body' | 'abandoned' | 'replaced', string> = {} as never;

  beforeAll(async () => {
    s3 = onS3 ? await startLocalS3() : undefined;
    t = await createTestApp(dialect, s3?.env ?? {});
    writer = await t.createUser();
    reader = await t.createUser();
    for (const key of Object.keys({ blog: 0, wishlistCopy: 0, avatar: 0, body: 0, abandoned: 0, replaced: 0 }) as (keyof typeof url)[]) {
      url[key] = await upload(t, writer);
    }
    // A blog created with one photo, then edited to another: the first is no longer shown, but
    // the post's first version names it, so a restore can bring it back (decision 070). Its
    // body shows a picture uploaded from the writing form's toolbar (decision 030).
    const created = await t.request('/api/blogs', {
      method: 'POST',
      headers: { cookie: writer.cookie },
      json: { title: 'Swept', category: 'Personal', type: 'written content', short_description: 's', long_description: `Look:\n\n![a tiled wall](${url.body}#900x600)`, availability: 'Public', photo: url.replaced },
    });
    const { insertedId } = (await created.json()) as { insertedId: string };
    // The reader's wishlist keeps a copy of the photo the blog had when it was added.
    expect((await t.request('/api/wishlist', { method: 'POST', headers: { cookie: reader.cookie }, json: { blogId: insertedId } })).status).toBeLessThan(300);
    expect((await t.request(`/api/blogs/${insertedId}`, { method: 'PUT', headers: { cookie: writer.cookie }, json: { photo: url.blog } })).status).toBe(200);
    await t.deps.database.db.updateTable('wishlist').set({ photo: url.wishlistCopy }).execute();
    await t.deps.database.db.updateTable('user').set({ image: url.avatar }).where('id', '=', writer.user.id).execute();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('keeps everything younger than the grace period, referenced or not', async () => {
    const before = await storedIds(t);
    expect(await sweepOrphanedImages(t.context(null), imageStoreFor(t.deps.config))).toMatchObject({ removed: 0 });
    expect(await storedIds(t)).toEqual(before);
  });

  it('removes every width of unreferenced images past the grace period, and only those, even when two instances sweep at once', async () => {
    if (!onS3) {
      // A temporary file a crash left behind, a day old.
      const tmp = path.join(uploadsDir(t.deps.config), `.${randomUUID()}-400.webp.tmp`);
      writeFileSync(tmp, 'half');
      const old = new Date(Date.now() - DAY_AND_AN_HOUR);
      utimesSync(tmp, old, old);
    }
    const [first, second] = await Promise.all([sweepLater(t), sweepLater(t)]);
    // The abandoned upload, at three widths (and the crash leftover); the replaced photo stays with the version that has it.
    expect(Math.max(first.removed, second.removed)).toBe(onS3 ? 3 : 4);
    const left = await storedIds(t);
    expect(left).toEqual(new Set([url.blog, url.wishlistCopy, url.avatar, url.body, url.replaced].map(storedImageId)));
    // The focal points of removed images go with them (decision 040).
    const points = await t.deps.database.db.selectFrom('image_focus').select('image_id').execute();
    expect(new Set(points.map((p) => p.image_id))).toEqual(left);
    if (!onS3) expect(readdirSync(uploadsDir(t.deps.config))).toHaveLength(15);
    // Nothing a page shows went missing.
    for (const kept of [url.blog, url.wishlistCopy, url.avatar, url.body, url.replaced]) expect((onS3 ? await fetch(kept) : await t.request(kept)).status).toBe(200);
  });
});
