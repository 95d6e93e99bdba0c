/**
 * An archive held in memory as the readers see one (`ArchiveEntries`): the files a test builds,
 * by path. The zip around them is the importer's; readers take entries.
 */
import { type ArchiveEntries, ArchiveRefused } from '~/features/imports/import-model';

export type ArchiveFiles = Map<string, Buffer | string>;

export function archiveEntries(files: ArchiveFiles, maxBytes = 64 * 1024 * 1024): ArchiveEntries & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    list: () => [...files.keys()],
    async read(path) {
      const content = files.get(path);
      if (content === undefined) throw new Error(`${path} is not in the archive`);
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
      if (bytes.length > maxBytes) throw new ArchiveRefused(`${path} is larger than ${maxBytes} bytes`);
      reads.push(path);
      return bytes;
    },
  };
}
