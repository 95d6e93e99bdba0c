import { type ArchiveEntries, ArchiveRefused, type ImportBundle, type ReadOptions } from './import-model';
import { isAfterglowExport, readAfterglow } from './sources/afterglow.server';
import { findGhostMembers, readGhostMembersExport } from './sources/ghost-members.server';
import { findGhostJson, isGhostExport, readGhost } from './sources/ghost.server';
import { isMarkdownSite, readMarkdown } from './sources/markdown.server';
import { readMedium } from './sources/medium.server';
import { findSubstackLists, readSubstack, readSubstackListsExport } from './sources/substack.server';
import { readWordpress } from './sources/wordpress.server';

/** The formats this site reads, each recognised by what the archive holds (docs/decisions/072, 073). */
export const IMPORT_FORMATS = ['afterglow', 'ghost', 'markdown', 'wordpress', 'substack', 'medium'] as const;

/** The first bytes of a file, as text (enough to see what kind of export it is). */
async function head(entries: ArchiveEntries, name: string): Promise<string> {
  try {
    if (!entries.stream) return (await entries.read(name)).subarray(0, 4096).toString('utf8');
    // Only its first bytes are read where the archive can: a large export is not read twice.
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of entries.stream(name)) {
      chunks.push(Buffer.from(chunk));
      size += chunk.length;
      if (size >= 4096) break;
    }
    return Buffer.concat(chunks).subarray(0, 4096).toString('utf8');
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    return '';
  }
}

/** WordPress's Tools → Export: an XML file in the WXR namespace. */
async function looksLikeWordpress(entries: ArchiveEntries): Promise<boolean> {
  const xml = entries.list().filter((name) => name.toLowerCase().endsWith('.xml'));
  for (const name of xml) if ((await head(entries, name)).includes('wordpress.org/export/')) return true;
  return false;
}

/** Substack's export zip: a posts.csv beside the posts' HTML. */
const looksLikeSubstack = (entries: ArchiveEntries) => entries.list().some((name) => name === 'posts.csv' || name.endsWith('/posts.csv'));

/** Medium's export zip: stories as h-entry HTML files under posts/. */
async function looksLikeMedium(entries: ArchiveEntries): Promise<boolean> {
  const story = entries.list().find((name) => /(^|\/)posts\/[^/]+\.html$/.test(name));
  return story !== undefined && (await head(entries, story)).includes('h-entry');
}

async function looksLikeGhost(entries: ArchiveEntries): Promise<boolean> {
  const name = findGhostJson(entries.list());
  if (!name) return false;
  try {
    return await isGhostExport(entries, name);
  } catch (error) {
    if (error instanceof ArchiveRefused) throw error;
    return false;
  }
}

/**
 * The archive's content as a bundle, by the first reader that recognises it; refused when none
 * does. With `options.onPosts`, the Markdown, Substack and Medium readers hand their posts on as
 * they read them, and the WordPress and Ghost readers too when `options.onRewrite` is given (our
 * own export answers its posts in the bundle: docs/decisions/095).
 */
export async function readBundle(entries: ArchiveEntries, options: ReadOptions = {}): Promise<ImportBundle> {
  if (await isAfterglowExport(entries)) return readAfterglow(entries);
  if (isMarkdownSite(entries.list())) return readMarkdown(entries, options);
  if (await looksLikeGhost(entries)) return readGhost(entries, options);
  if (await looksLikeWordpress(entries)) return readWordpress(entries, options);
  if (looksLikeSubstack(entries)) return readSubstack(entries, options);
  if (await looksLikeMedium(entries)) return readMedium(entries, options);
  const members = await findGhostMembers(entries);
  if (members.length > 0) return readGhostMembersExport(entries, members);
  const lists = await findSubstackLists(entries);
  if (lists.length > 0) return readSubstackListsExport(entries, lists);
  throw new ArchiveRefused('This archive is none of the formats this site imports (an afterglow export, a Ghost JSON export or members CSV, a Jekyll or Hugo site, a WordPress export, a Substack or a Medium export zip, a Substack subscriber list).');
}
