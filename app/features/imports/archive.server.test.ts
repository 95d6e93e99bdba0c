import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { renameInZip, writeZip, zipOf } from '#test/archives';
import { tempDirs } from '#test/temp-dirs';
import { DEFAULT_ARCHIVE_LIMITS, openArchive, safeEntryPath } from './archive.server';
import { ArchiveRefused } from './import-model';

const dirs = tempDirs();
afterAll(() => dirs.removeAll());
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'opened',
    (error: Error) => (error instanceof ArchiveRefused ? `refused: ${error.message}` : `failed: ${error.message}`),
  );

/** A stream of `bytes` zeros, made as it is read (a bomb's body need not exist in memory). */
const zeros = (bytes: number) => {
  let left = bytes;
  return () =>
    new Readable({
      read() {
        const chunk = Math.min(left, 1024 * 1024);
        left -= chunk;
        this.push(chunk > 0 ? Buffer.alloc(chunk) : null);
      },
    });
};

describe('opening an archive (docs/decisions/072)', () => {
  it('lists and reads a zip’s files on demand, folders left out, names normalised', async () => {
    const dir = dirs.make('archive-');
    const file = await writeZip(dir, 'site.zip', [
      { name: 'site/_posts/2020-01-01-hello.md', body: '---\ntitle: Hello\n---\nBody' },
      { name: 'site/./images/a.png', body: Buffer.from([1, 2, 3]), store: true },
    ]);
    const archive = await openArchive(file);
    expect(archive.list().sort()).toEqual(['site/_posts/2020-01-01-hello.md', 'site/images/a.png']);
    expect((await archive.read('site/images/a.png')).equals(Buffer.from([1, 2, 3]))).toBe(true);
    expect((await archive.read('site/_posts/2020-01-01-hello.md')).toString()).toContain('Body');
    await expect(archive.read('nope.md')).rejects.toBeInstanceOf(ArchiveRefused);
    await archive.close();
  });

  it('takes a plain JSON or XML file as an archive of one, and refuses anything else', async () => {
    const dir = dirs.make('archive-');
    const json = path.join(dir, 'ghost.json');
    await writeFile(json, '{"db":[]}');
    const archive = await openArchive(json);
    expect(archive.list()).toEqual(['ghost.json']);
    expect((await archive.read('ghost.json')).toString()).toBe('{"db":[]}');
    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'hello');
    expect(await refusal(openArchive(text))).toMatch(/^refused: notes.txt is neither a zip archive nor a JSON, XML or CSV file/);
    const broken = path.join(dir, 'broken.zip');
    await writeFile(broken, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(100)]));
    expect(await refusal(openArchive(broken))).toMatch(/^refused: The file is not a readable zip archive/);
  });

  it('refuses ../ and absolute paths, before any file is read', async () => {
    const dir = dirs.make('archive-');
    const traversal = await zipOf(dir, 'traversal.zip', { 'ok.md': 'fine', 'xx/evil.sh': 'rm -rf' });
    await renameInZip(traversal, 'xx/evil.sh', '../evil.sh');
    expect(await refusal(openArchive(traversal))).toBe('refused: The archive names a file outside itself (../evil.sh); nothing was imported.');
    const absolute = await zipOf(dir, 'absolute.zip', { 'xetc/passwd': 'root' });
    await renameInZip(absolute, 'xetc/passwd', '/etc/passwd');
    expect(await refusal(openArchive(absolute))).toBe('refused: The archive names a file by an absolute path (/etc/passwd); nothing was imported.');
    const backslash = await zipOf(dir, 'backslash.zip', { 'aa/bb/evil': 'x' });
    await renameInZip(backslash, 'aa/bb/evil', '..\\..\\evil');
    expect(await refusal(openArchive(backslash))).toMatch(/^refused: The archive names a file outside itself/);
    expect(() => safeEntryPath('C:/Windows/x')).toThrow(ArchiveRefused);
    expect(safeEntryPath('a//b/./c')).toBe('a/b/c');
  });

  it('refuses a symbolic link', async () => {
    const dir = dirs.make('archive-');
    const file = await writeZip(dir, 'link.zip', [{ name: 'content/images/link.jpg', body: '/etc/shadow', mode: 0o120777 }]);
    expect(await refusal(openArchive(file))).toBe('refused: The archive holds a symbolic link (content/images/link.jpg); nothing was imported.');
  });

  it('refuses a zip bomb by its ratio, too many files, and too many bytes in all or in one', async () => {
    const dir = dirs.make('archive-');
    const bomb = await writeZip(dir, 'bomb.zip', [{ name: 'zeros.bin', body: zeros(64 * 1024 * 1024) }]);
    const started = Date.now();
    expect(await refusal(openArchive(bomb))).toMatch(/^refused: zeros.bin unpacks to more than 200 times its packed size \(a zip bomb\)/);
    expect(Date.now() - started).toBeLessThan(2000);
    const many = await zipOf(dir, 'many.zip', Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}.md`, 'x'])));
    expect(await refusal(openArchive(many, { ...DEFAULT_ARCHIVE_LIMITS, maxEntries: 20 }))).toBe('refused: The archive holds more than 20 files; nothing was imported.');
    const big = await zipOf(dir, 'big.zip', { 'a.md': 'a'.repeat(4000), 'b.md': 'b'.repeat(4000) });
    expect(await refusal(openArchive(big, { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: 3000 }))).toMatch(/^refused: a.md is larger than 3000 bytes unpacked/);
    expect(await refusal(openArchive(big, { ...DEFAULT_ARCHIVE_LIMITS, maxTotalBytes: 6000 }))).toMatch(/^refused: The archive unpacks to more than 6000 bytes/);
  });

  it('stops inflating a file whose header lies about its size', async () => {
    const dir = dirs.make('archive-');
    const file = await writeZip(dir, 'liar.zip', [{ name: 'small.md', body: 'y'.repeat(50_000) }]);
    // The central directory's uncompressed size patched down to 100: yauzl checks the real size against it.
    const { readFile, writeFile: write } = await import('node:fs/promises');
    const bytes = await readFile(file);
    const central = bytes.lastIndexOf(Buffer.from('PK\x01\x02', 'latin1'));
    bytes.writeUInt32LE(100, central + 24);
    await write(file, bytes);
    const archive = await openArchive(file);
    expect(await refusal(archive.read('small.md'))).toMatch(/^refused: small.md cannot be read from the archive|^refused: small.md is larger/);
    // Streamed, the same refusal (docs/decisions/095).
    expect(await refusal(concat(archive.stream!('small.md')))).toMatch(/^refused: small.md cannot be read from the archive|^refused: small.md is larger/);
    await archive.close();
  });

  it('streams a file as it reads it, zipped or plain: the bytes `read` gives, and a refusal for a name not there (docs/decisions/095)', async () => {
    const dir = dirs.make('archive-');
    const body = Buffer.from('<p>words</p>\n'.repeat(200_000));
    const file = await writeZip(dir, 'export.zip', [{ name: 'export.xml', body, store: true }]);
    const zipped = await openArchive(file);
    const chunks: number[] = [];
    const streamed = await concat(zipped.stream!('export.xml'), chunks);
    expect(streamed.equals(body)).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(() => zipped.stream!('nope.xml')).toThrow(ArchiveRefused);
    await zipped.close();
    const plainFile = path.join(dir, 'export.xml');
    await writeFile(plainFile, body);
    const plain = await openArchive(plainFile);
    expect((await concat(plain.stream!('export.xml'))).equals(await plain.read('export.xml'))).toBe(true);
    expect(() => plain.stream!('other.xml')).toThrow(ArchiveRefused);
  });
});

/** A stream's bytes in one buffer; `sizes` gets each chunk's size. */
async function concat(stream: AsyncIterable<Uint8Array>, sizes: number[] = []): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    sizes.push(chunk.length);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
