import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import yazl from 'yazl';

export interface ZipMember {
  name: string;
  body: Buffer | string | (() => Readable);
  /** Stored uncompressed (the default deflates). */
  store?: boolean;
  /** Unix mode, e.g. 0o120777 for a symbolic link. */
  mode?: number;
}

/**
 * Writes a real zip archive with yazl (streamed, so a test can make a large one without holding
 * it), as an export tool would. Names are written as given: a hostile name is the point of some tests.
 */
export async function writeZip(dir: string, fileName: string, members: ZipMember[]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const member of members) {
    const options = { compress: !member.store, ...(member.mode ? { mode: member.mode } : {}) };
    if (typeof member.body === 'function') zip.addReadStream(member.body(), member.name, options);
    else zip.addBuffer(Buffer.isBuffer(member.body) ? member.body : Buffer.from(member.body), member.name, options);
  }
  zip.end();
  const file = path.join(dir, fileName);
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(file)).on('close', resolve).on('error', reject);
  });
  return file;
}

/** A zip of `files` (name → body), each deflated. */
export const zipOf = (dir: string, fileName: string, files: Record<string, Buffer | string>) =>
  writeZip(dir, fileName, Object.entries(files).map(([name, body]) => ({ name, body })));

/**
 * Renames members in a written zip by patching their names' bytes (local headers and central
 * directory alike): how a test makes the names a well-behaved writer refuses (`../x`, `/etc/x`).
 * `from` and `to` must be of the same length.
 */
export async function renameInZip(file: string, from: string, to: string): Promise<void> {
  const { readFile, writeFile } = await import('node:fs/promises');
  if (from.length !== to.length) throw new Error('renameInZip: names of the same length only');
  const bytes = await readFile(file);
  const needle = Buffer.from(from);
  let at = bytes.indexOf(needle);
  if (at < 0) throw new Error(`renameInZip: ${from} not found`);
  for (; at >= 0; at = bytes.indexOf(needle, at + 1)) Buffer.from(to).copy(bytes, at);
  await writeFile(file, bytes);
}
