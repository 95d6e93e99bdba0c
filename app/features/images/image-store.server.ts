import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { lazy } from '~/lib/page/lazy';
import type { ImageStore, StoredObject } from '~/lib/core/service-context';

const s3Sdk = lazy(() => import('@aws-sdk/client-s3'));

/** Where processed images go: local disk by default, any S3-compatible store when S3_* is set. */
export type { ImageStore, StoredObject };

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

import { STORED_NAME } from './images.schema';

export { STORED_NAME };

export interface ImageStoreConfig {
  DATA_DIR: string;
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_PUBLIC_URL?: string;
}

export const uploadsDir = (config: Pick<ImageStoreConfig, 'DATA_DIR'>) => path.join(config.DATA_DIR, 'uploads');

/** Where S3 objects are read from: the public URL, or the bucket on the endpoint (path-style). */
const s3PublicBase = (config: ImageStoreConfig & { S3_ENDPOINT: string; S3_BUCKET: string }) =>
  (config.S3_PUBLIC_URL ?? `${config.S3_ENDPOINT.replace(/\/+$/, '')}/${config.S3_BUCKET}`).replace(/\/+$/, '');

/**
 * The URL prefixes our own images are answered under: `/uploads/` (local disk) and, with S3, the
 * bucket's public base. Images in a blog's body are shown only from these (docs/decisions/030).
 */
export function ownImageBases(config: ImageStoreConfig): string[] {
  const s3 = config.S3_ENDPOINT && config.S3_BUCKET ? [`${s3PublicBase({ ...config, S3_ENDPOINT: config.S3_ENDPOINT, S3_BUCKET: config.S3_BUCKET })}/`] : [];
  return ['/uploads/', ...s3];
}

/**
 * Whether `url` is an image our pipeline stored: under one of `bases` (`ownImageBases`) and
 * named as the pipeline names them. Mails, feeds and sharing tags show only these (decision 050).
 */
export function isOwnImage(url: string, bases: readonly string[]): boolean {
  const base = bases.find((b) => url.startsWith(b));
  return base !== undefined && STORED_NAME.test(url.slice(base.length));
}

/** The photo when it is ours, else null: what leaves the site (mails, feeds, sharing tags) embeds. */
export const ownPhoto = (photo: string | null | undefined, bases: readonly string[]): string | null => (photo && isOwnImage(photo, bases) ? photo : null);

export class LocalImageStore implements ImageStore {
  constructor(private readonly dir: string) {}

  async put(name: string, body: Buffer): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const tmp = path.join(this.dir, `.${name}.tmp`);
    try {
      await writeFile(tmp, body);
      await rename(tmp, path.join(this.dir, name));
    } catch (error) {
      // A full disk leaves a truncated temporary file behind: it goes, whatever was written.
      await unlink(tmp).catch(() => {});
      throw error;
    }
    return `/uploads/${name}`;
  }

  async delete(name: string): Promise<void> {
    await unlink(path.join(this.dir, name)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  /** Our images and the temporary files a crash may have left (`.{name}.tmp`). */
  async *list(): AsyncIterable<StoredObject> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return; // nothing uploaded yet
    }
    for (const name of names) {
      if (!STORED_NAME.test(name.replace(/^\.(.*)\.tmp$/, '$1'))) continue;
      const info = await stat(path.join(this.dir, name)).catch(() => null);
      if (info) yield { name, modified: info.mtime, size: info.size };
    }
  }

  /** The stored bytes, or null for a name we never generated or no longer have. */
  async read(name: string): Promise<Buffer | null> {
    if (!STORED_NAME.test(name)) return null;
    try {
      return await readFile(path.join(this.dir, name));
    } catch {
      return null;
    }
  }
}

export class S3ImageStore implements ImageStore {
  private readonly client: () => Promise<S3Client>;
  private readonly publicBase: string;

  constructor(private readonly config: Required<Pick<ImageStoreConfig, 'S3_ENDPOINT' | 'S3_BUCKET'>> & ImageStoreConfig) {
    this.client = lazy(async () => new (await s3Sdk()).S3Client({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      // Path-style addressing works with every S3-compatible server, not only AWS.
      forcePathStyle: true,
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY }
          : undefined,
    }));
    this.publicBase = s3PublicBase(config);
  }

  async put(name: string, body: Buffer, contentType: string): Promise<string> {
    const { PutObjectCommand } = await s3Sdk();
    await (await this.client()).send(
      new PutObjectCommand({
        Bucket: this.config.S3_BUCKET,
        Key: name,
        Body: body,
        ContentType: contentType,
        CacheControl: IMMUTABLE_CACHE,
      }),
    );
    return `${this.publicBase}/${name}`;
  }

  async delete(name: string): Promise<void> {
    const { DeleteObjectCommand } = await s3Sdk();
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.config.S3_BUCKET, Key: name }));
  }

  async *list(): AsyncIterable<StoredObject> {
    const { ListObjectsV2Command } = await s3Sdk();
    const client = await this.client();
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: this.config.S3_BUCKET, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (object.Key && STORED_NAME.test(object.Key)) yield { name: object.Key, modified: object.LastModified ?? new Date(0), size: object.Size ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async read(name: string): Promise<Buffer | null> {
    if (!STORED_NAME.test(name)) return null;
    const { GetObjectCommand, NoSuchKey } = await s3Sdk();
    try {
      const object = await (await this.client()).send(new GetObjectCommand({ Bucket: this.config.S3_BUCKET, Key: name }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }
}

const stores = new WeakMap<object, ImageStore>();

/** One store per process configuration (the S3 client keeps its connections). */
export function imageStoreFor(config: ImageStoreConfig): ImageStore {
  let store = stores.get(config);
  if (!store) {
    store =
      config.S3_ENDPOINT && config.S3_BUCKET
        ? new S3ImageStore({ ...config, S3_ENDPOINT: config.S3_ENDPOINT, S3_BUCKET: config.S3_BUCKET })
        : new LocalImageStore(uploadsDir(config));
    stores.set(config, store);
  }
  return store;
}
