import { type ArchiveEntries, ArchiveRefused, type ImportBundle } from './import-model';
import { isAfterglowExport, readAfterglow } from './sources/afterglow.server';
import { findGhostJson, isGhostExport, readGhost } from './sources/ghost.server';
import { isMarkdownSite, readMarkdown } from './sources/markdown.server';

/** The formats this site reads, each recognised by what the archive holds (docs/decisions/072). */
export const IMPORT_FORMATS = ['afterglow', 'ghost', 'markdown'] as const;

async function looksLikeGhost(entries: ArchiveEntries): Promise<boolean> {
  const name = findGhostJson(entries.list());
  if (!name) return false;
  try {
    return isGhostExport(JSON.parse((await entries.read(name)).toString('utf8')));
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    return false;
  }
}

/** The archive's content as a bundle, by the first reader that recognises it; refused when none does. */
export async function readBundle(entries: ArchiveEntries, options: { siteUrl?: string | null } = {}): Promise<ImportBundle> {
  if (await isAfterglowExport(entries)) return readAfterglow(entries);
  if (isMarkdownSite(entries.list())) return readMarkdown(entries, options);
  if (await looksLikeGhost(entries)) return readGhost(entries, options);
  throw new ArchiveRefused('This archive is none of the formats this site imports (an afterglow export, a Ghost JSON export, or a Jekyll or Hugo site).');
}
