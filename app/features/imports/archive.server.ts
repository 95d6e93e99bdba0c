import { createReadStream } from 'node:fs';
import { open as openFile, readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import path from 'node:path';
import yauzl from 'yauzl';
import { type ArchiveEntries, ArchiveRefused } from './import-model';

/**
 * An archive opened for reading without unpacking it (docs/decisions/072): the zip's central
 * directory is read and checked once, before anything is used; each file's bytes are read on
 * demand, one at a time, and counted while they are inflated, so a large archive never sits in
 * memory and a lying header cannot inflate past its limit. A plain JSON, XML or CSV file (Ghost's
 * members export) is accepted as an archive of one file.
 */
export interface ArchiveLimits {
  /** Files (and folders) the archive may hold. */
  maxEntries: number;
  /** Uncompressed bytes of one file. */
  maxFileBytes: number;
  /** Uncompressed bytes of the whole archive. */
  maxTotalBytes: number;
  /** Uncompressed size over compressed size, for a file large enough to matter. */
  maxRatio: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 50_000,
  maxFileBytes: 200 * 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024 * 1024,
  maxRatio: 200,
};

/** A file below this size is never judged by its ratio: a page of repeated text compresses well and harms nothing. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface OpenArchive extends ArchiveEntries {
  close(): Promise<void>;
}

const ZIP_MAGIC = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

/** The path a member names, normalised; refused when it could leave the folder it is unpacked into. */
export function safeEntryPath(name: string): string {
  if (name.includes('\0')) throw new ArchiveRefused(`The archive names a file with a NUL character (${JSON.stringify(name.slice(0, 80))}).`);
  const slashed = name.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw new ArchiveRefused(`The archive names a file by an absolute path (${name.slice(0, 200)}); nothing was imported.`);
  const parts = slashed.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) throw new ArchiveRefused(`The archive names a file outside itself (${name.slice(0, 200)}); nothing was imported.`);
  return parts.join('/');
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (error, zip) =>
      error ? reject(new ArchiveRefused(`The file is not a readable zip archive (${error.message}).`)) : resolve(zip),
    ),
  );
}

/** yauzl's own name checks, said as ours. */
function refusalOf(error: Error): ArchiveRefused {
  const name = /^(?:invalid relative path|absolute path): (.*)$/.exec(error.message)?.[1];
  if (name !== undefined) {
    try {
      safeEntryPath(name);
    } catch (refused) {
      return refused as ArchiveRefused;
    }
  }
  return new ArchiveRefused(`The zip archive is damaged (${error.message}).`);
}

/** Walks the central directory once, checking every entry before any file is read. */
function indexZip(zip: yauzl.ZipFile, limits: ArchiveLimits): Promise<Map<string, yauzl.Entry>> {
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  let seen = 0;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      zip.removeAllListeners('entry');
      reject(error instanceof ArchiveRefused ? error : refusalOf(error as Error));
    };
    zip.on('error', fail);
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: yauzl.Entry) => {
      try {
        seen += 1;
        if (seen > limits.maxEntries) throw new ArchiveRefused(`The archive holds more than ${limits.maxEntries} files; nothing was imported.`);
        const name = safeEntryPath(entry.fileName);
        const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
        if (mode === 0o120000) throw new ArchiveRefused(`The archive holds a symbolic link (${name}); nothing was imported.`);
        if (!entry.fileName.endsWith('/') && name !== '') {
          const size = entry.uncompressedSize;
          if (size > limits.maxFileBytes) throw new ArchiveRefused(`${name} is larger than ${limits.maxFileBytes} bytes unpacked; nothing was imported.`);
          if (size > RATIO_FLOOR_BYTES && size / Math.max(1, entry.compressedSize) > limits.maxRatio) {
            throw new ArchiveRefused(`${name} unpacks to more than ${limits.maxRatio} times its packed size (a zip bomb); nothing was imported.`);
          }
          total += size;
          if (total > limits.maxTotalBytes) throw new ArchiveRefused(`The archive unpacks to more than ${limits.maxTotalBytes} bytes; nothing was imported.`);
          entries.set(name, entry);
        }
        zip.readEntry();
      } catch (error) {
        fail(error);
      }
    });
    zip.readEntry();
  });
}

function readEntry(zip: yauzl.ZipFile, name: string, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new ArchiveRefused(`${name} cannot be read from the archive (${error.message}).`));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // The header's size is checked by yauzl as well; this bound holds even if it lied.
        if (size > limit) {
          stream.destroy();
          reject(new ArchiveRefused(`${name} is larger than ${limit} bytes unpacked; nothing was imported.`));
          return;
        }
        chunks.push(chunk);
      });
      stream.on('error', (streamError) => reject(new ArchiveRefused(`${name} cannot be read from the archive (${streamError.message}).`)));
      stream.on('end', () => resolve(Buffer.concat(chunks, size)));
    });
  });
}

/** A member's bytes as they are inflated, counted against the same limit as `readEntry`'s. */
async function* streamEntry(zip: yauzl.ZipFile, name: string, entry: yauzl.Entry, limit: number): AsyncGenerator<Uint8Array> {
  const stream = await new Promise<Readable>((resolve, reject) =>
    zip.openReadStream(entry, (error, opened) => (error ? reject(new ArchiveRefused(`${name} cannot be read from the archive (${error.message}).`)) : resolve(opened))),
  );
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw new ArchiveRefused(`${name} is larger than ${limit} bytes unpacked; nothing was imported.`);
      yield chunk;
    }
  } catch (error) {
    throw error instanceof ArchiveRefused ? error : new ArchiveRefused(`${name} cannot be read from the archive (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    stream.destroy();
  }
}

/** Opens `file` (a zip, or one JSON, XML or CSV file) as archive entries, with every guard checked up front. */
export async function openArchive(file: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): Promise<OpenArchive> {
  const handle = await openFile(file, 'r');
  let head: Buffer;
  let size: number;
  try {
    head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    size = (await handle.stat()).size;
  } finally {
    await handle.close();
  }
  if (ZIP_MAGIC.some((magic) => head.equals(magic))) {
    const zip = await openZip(file);
    let entries: Map<string, yauzl.Entry>;
    try {
      entries = await indexZip(zip, limits);
    } catch (error) {
      zip.close();
      throw error;
    }
    return {
      list: () => [...entries.keys()],
      read: (name) => {
        const entry = entries.get(name);
        if (!entry) return Promise.reject(new ArchiveRefused(`${name} is not in the archive.`));
        return readEntry(zip, name, entry, limits.maxFileBytes);
      },
      stream: (name) => {
        const entry = entries.get(name);
        if (!entry) throw new ArchiveRefused(`${name} is not in the archive.`);
        return streamEntry(zip, name, entry, limits.maxFileBytes);
      },
      close: async () => zip.close(),
    };
  }
  const name = path.basename(file);
  if (!/\.(json|xml|csv)$/i.test(name)) throw new ArchiveRefused(`${name} is neither a zip archive nor a JSON, XML or CSV file.`);
  if (size > limits.maxFileBytes) throw new ArchiveRefused(`${name} is larger than ${limits.maxFileBytes} bytes; nothing was imported.`);
  return {
    list: () => [name],
    read: async (wanted) => {
      if (wanted !== name) throw new ArchiveRefused(`${wanted} is not in the archive.`);
      return readFile(file);
    },
    stream: (wanted) => {
      if (wanted !== name) throw new ArchiveRefused(`${wanted} is not in the archive.`);
      return createReadStream(file);
    },
    close: async () => {},
  };
}

/** Entries over bytes already in memory (a reader handed a Buffer, or a test). */
export function entriesOf(files: Record<string, Buffer | string>): ArchiveEntries {
  const map = new Map(Object.entries(files).map(([name, body]) => [safeEntryPath(name), Buffer.isBuffer(body) ? body : Buffer.from(body)]));
  return {
    list: () => [...map.keys()],
    read: async (name) => {
      const body = map.get(name);
      if (!body) throw new ArchiveRefused(`${name} is not in the archive.`);
      return body;
    },
  };
}
