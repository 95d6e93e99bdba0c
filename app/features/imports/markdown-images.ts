import path from 'node:path/posix';
import type { ImportImageRef } from './import-model';

/** Every image a Markdown body shows: `![alt](target "title")` and `<img src="…">`, each exact target string once. */
export function imageTargets(markdown: string): string[] {
  const found = new Set<string>();
  for (const match of markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'][^)]*["'])?\s*\)/g)) found.add(match[1]!);
  for (const match of markdown.matchAll(/<img\b[^>]*?\bsrc=["']([^"']+)["']/gi)) found.add(match[1]!);
  return [...found];
}

/**
 * Where an image the source names is: a file of the archive when one of `candidates` is there,
 * else its address on the old site (absolute, or resolved against the site's address), else
 * nothing (reported as missing by the caller).
 */
export function locateImage(target: string, files: ReadonlySet<string>, candidates: (target: string) => string[], siteUrl: string | null): ImportImageRef | null {
  if (target.startsWith('data:')) return null;
  for (const candidate of candidates(target)) {
    const normal = path.normalize(candidate).replace(/^\/+/, '');
    if (!normal.startsWith('..') && files.has(normal)) return { kind: 'archive', path: normal };
  }
  if (/^https?:\/\//i.test(target)) return { kind: 'url', url: target };
  if (target.startsWith('//')) return { kind: 'url', url: `https:${target}` };
  if (siteUrl && target.startsWith('/')) {
    try {
      return { kind: 'url', url: new URL(target, siteUrl).href };
    } catch {
      return null;
    }
  }
  return null;
}

/** The path of a site-relative or same-site URL (`https://old.example/content/x.jpg` → `content/x.jpg`), for finding it in the archive. */
export function sitePath(target: string, siteUrl: string | null): string | null {
  if (target.startsWith('/') && !target.startsWith('//')) return decodeURIComponent(target.split(/[?#]/)[0]!.slice(1));
  if (siteUrl && target.startsWith(siteUrl.replace(/\/$/, ''))) {
    try {
      return decodeURIComponent(new URL(target).pathname.slice(1));
    } catch {
      return null;
    }
  }
  return null;
}

/** A short description from a body: its first sentence (or words) of plain text, at most `max` characters. */
export function firstSentence(markdown: string, max: number): string {
  const plain = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^(.+?[.!?؟。])(\s|$)/u.exec(plain)?.[1] ?? plain;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > max / 2 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/** Why an image a post names is not coming along (shown in the report). */
export const MISSING_IMAGE = 'not in the archive, and no old address to fetch it from';
