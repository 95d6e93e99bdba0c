import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { lazy } from '~/lib/page/lazy';
import type { FileStore, ImageStore, StoredObject } from '~/lib/core/service-context';

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

/** A private file's key: one folder and one name of our making, nothing that climbs out or hides. */
const FILE_KEY = /^[a-z][a-z0-9-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkedKey(key: string): string {
  if (!FILE_KEY.test(key) || key.includes('..')) throw new Error(`not a private file key: ${key}`);
  return key;
}

const ignoreGone = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

/** Private files on local disk, under DATA_DIR (never under uploads/, which is served). */
export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    return path.join(this.root, checkedKey(key));
  }

  async putFile(key: string, file: string): Promise<number> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(file, target);
    return (await stat(target)).size;
  }

  async openFile(key: string): Promise<{ size: number; body: Readable } | null> {
    const file = this.pathOf(key);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { size: info.size, body: createReadStream(file) } : null;
  }

  async deleteFile(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch(ignoreGone);
  }

  async *listFiles(folder: string): AsyncIterable<StoredObject> {
    const dir = path.join(this.root, folder);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return; // nothing written yet
    }
    for (const name of names) {
      const info = await stat(path.join(dir, name)).catch(() => null);
      if (info?.isFile()) yield { name: `${folder}/${name}`, modified: info.mtime, size: info.size };
    }
  }
}

export class LocalImageStore implements ImageStore {
  readonly files: FileStore;

  constructor(private readonly dir: string, filesRoot = path.dirname(dir)) {
    this.files = new LocalFileStore(filesRoot);
  }

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
    await unlink(path.join(this.dir, name)).catch(ignoreGone);
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

const s3ClientConfig = (config: ImageStoreConfig & { S3_ENDPOINT: string }) => ({
  endpoint: config.S3_ENDPOINT,
  region: config.S3_REGION,
  // Path-style addressing works with every S3-compatible server, not only AWS.
  forcePathStyle: true,
  credentials:
    config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } : undefined,
});

/**
 * Private files in the images' bucket, under their folder's prefix: written with no public
 * caching, read back only through the site (the image sweep lists stored image names only).
 */
class S3FileStore implements FileStore {
  constructor(
    private readonly client: () => Promise<S3Client>,
    private readonly bucket: string,
  ) {}

  /** One PUT streamed from the file, its length known (S3 takes up to 5 GiB so). */
  async putFile(key: string, file: string, contentType: string): Promise<number> {
    const { PutObjectCommand } = await s3Sdk();
    const { size } = await stat(file);
    await (await this.client()).send(
      new PutObjectCommand({ Bucket: this.bucket, Key: checkedKey(key), Body: createReadStream(file), ContentLength: size, ContentType: contentType, CacheControl: 'private, no-store' }),
    );
    await unlink(file);
    return size;
  }

  async openFile(key: string): Promise<{ size: number; body: Readable } | null> {
    const { GetObjectCommand, NoSuchKey } = await s3Sdk();
    try {
      const object = await (await this.client()).send(new GetObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
      // In Node the body is a readable stream of the response.
      return object.Body ? { size: object.ContentLength ?? 0, body: object.Body as Readable } : null;
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
  }

  async deleteFile(key: string): Promise<void> {
    const { DeleteObjectCommand } = await s3Sdk();
    await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedKey(key) }));
  }

  async *listFiles(folder: string): AsyncIterable<StoredObject> {
    const { ListObjectsV2Command } = await s3Sdk();
    const client = await this.client();
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${folder}/`, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (object.Key) yield { name: object.Key, modified: object.LastModified ?? new Date(0), size: object.Size ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }
}

export class S3ImageStore implements ImageStore {
  private readonly client: () => Promise<S3Client>;
  private readonly publicBase: string;
  readonly files: FileStore;

  constructor(private readonly config: Required<Pick<ImageStoreConfig, 'S3_ENDPOINT' | 'S3_BUCKET'>> & ImageStoreConfig) {
    this.client = lazy(async () => new (await s3Sdk()).S3Client(s3ClientConfig(config)));
    this.publicBase = s3PublicBase(config);
    // A stream is sent as it is, its length known: by default the SDK would frame it with a
    // trailing checksum (aws-chunked), which not every S3-compatible server reads as framing
    // (s3rver stores it in the object). Images, sent whole, keep the default.
    this.files = new S3FileStore(
      lazy(async () => new (await s3Sdk()).S3Client({ ...s3ClientConfig(config), requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' })),
      config.S3_BUCKET,
    );
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
        : new LocalImageStore(uploadsDir(config), config.DATA_DIR);
    stores.set(config, store);
  }
  return store;
}
