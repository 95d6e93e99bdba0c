import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fromBuffer, open, type Entry, type ZipFile } from 'yauzl';

/** An export's download (its body streamed from the store) saved to a file of its own, for what reads a zip from disk. */
export async function savedDownload(download: { body: Readable }): Promise<string> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'afterglow-download-')), 'export.zip');
  await pipeline(download.body, createWriteStream(file));
  return file;
}

/** Every file of a zip, by its path: what an export test reads back entry by entry. */
export async function readZip(source: string | Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    const done = (error: Error | null, z?: ZipFile) => (error || !z ? reject(error ?? new Error('no zip')) : resolve(z));
    if (typeof source === 'string') open(source, { lazyEntries: true }, done);
    else fromBuffer(source, { lazyEntries: true }, done);
  });
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error ?? new Error('no stream'));
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return files;
}

/** A post file's front matter (YAML text) and its body, split where the export joined them. */
export function splitFrontMatter(text: string): { front: string; body: string } {
  const match = /^---\n([\s\S]*?\n)---\n/.exec(text);
  if (!match) throw new Error('no front matter');
  return { front: match[1]!, body: text.slice(match[0].length) };
}
