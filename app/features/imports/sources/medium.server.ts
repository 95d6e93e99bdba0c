/**
 * Medium's export zip as an import bundle (docs/decisions/073): each story is `posts/*.html`, an
 * h-entry (title `h1.p-name`, subtitle `section.p-summary`, body `section.e-content`, date
 * `time.dt-published`, address `a.p-canonical`, author `a.p-author`). Drafts are the files named
 * `draft_…`. Responses (replies to other stories) are stories too in the export: recognised and
 * left out with the reason. Pictures stay at Medium's CDN as addresses the importer fetches.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import { htmlToMarkdown, markdownImageUrls } from '../html-to-markdown.server.ts';
import { type ArchiveEntries, ArchiveRefused, type ImportAuthor, type ImportBundle, handOnPosts, type ImportPost, type ReadOptions } from '../import-model.ts';

const hasClass = (el: Element, name: string) => (el.attribs.class ?? '').split(/\s+/).includes(name);
const text = (el: Element | null | undefined) => (el ? DomUtils.textContent(el).replace(/\s+/g, ' ').trim() : '');

function pathOf(href: string | undefined): string | null {
  try {
    const url = new URL((href ?? '').trim());
    return url.pathname.length > 1 ? url.pathname : null;
  } catch {
    return null;
  }
}

/** A response has no title of its own: no title paragraph, and Medium names it by its opening words. */
function isResponse(title: string, body: Element, titleGraf: Element | null): boolean {
  if (titleGraf) return false;
  const opening = title.replace(/(…|\.\.\.)$/, '').trim();
  return opening.length > 0 && text(body).startsWith(opening);
}

/**
 * Medium's export as a bundle; throws ArchiveRefused when the archive holds no posts/*.html. Each
 * post is whole once its file is read: with `options.onPosts`, they are handed on in chunks as
 * they are read (docs/decisions/095).
 */
export async function readMedium(entries: ArchiveEntries, options: ReadOptions = {}): Promise<ImportBundle> {
  const files = entries
    .list()
    .filter((path) => /(^|\/)posts\/[^/]+\.html?$/i.test(path))
    .sort();
  if (files.length === 0) throw new ArchiveRefused('The archive holds no posts/*.html: it is not a Medium export.');

  const authors = new Map<string, ImportAuthor>();
  const posts: ImportPost[] = [];
  const skipped: ImportBundle['skipped'] = [];
  const takenPaths = new Set<string>();
  const seen = new Set<string>();
  let siteUrl: string | null = null;

  for (const file of files) {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const doc = parseDocument((await entries.read(file)).toString('utf8'));
    const find = (test: (el: Element) => boolean, within: Element[] = doc.children as Element[]) => DomUtils.findOne(test, within, true);
    const titleEl = find((el) => el.name === 'h1' && hasClass(el, 'p-name'));
    const body = find((el) => el.name === 'section' && (hasClass(el, 'e-content') || el.attribs['data-field'] === 'body'));
    const title = text(titleEl);
    const label = `${name} “${title || '(untitled)'}”`;
    if (!body) {
      skipped.push({ item: label, reason: 'no story body (section.e-content) in the file' });
      continue;
    }
    const draft = /^draft_/i.test(name);
    const titleGraf = find((el) => hasClass(el, 'graf--title'), [body]);
    if (!draft && isResponse(title, body, titleGraf)) {
      skipped.push({ item: label, reason: 'a response to another story, not a post' });
      continue;
    }

    const canonical = find((el) => el.name === 'a' && hasClass(el, 'p-canonical'))?.attribs.href?.trim() ?? null;
    const time = find((el) => el.name === 'time' && hasClass(el, 'dt-published'));
    const sourceId = /-([0-9a-f]{8,16})\.html?$/i.exec(name)?.[1] ?? /-([0-9a-f]{8,16})$/i.exec(canonical ?? '')?.[1] ?? name.replace(/\.html?$/i, '');
    if (seen.has(sourceId)) {
      skipped.push({ item: label, reason: 'the same story appears twice in the archive' });
      continue;
    }
    seen.add(sourceId);
    const summary = text(find((el) => el.name === 'section' && hasClass(el, 'p-summary'))) || null;

    // The body repeats the title (and the subtitle) as its first paragraphs: the post has them as fields.
    if (titleGraf) DomUtils.removeElement(titleGraf);
    const subtitleGraf = find((el) => hasClass(el, 'graf--subtitle'), [body]);
    if (subtitleGraf && text(subtitleGraf) === summary) DomUtils.removeElement(subtitleGraf);
    // Medium opens every section with a divider; the first one is no break in the story.
    const firstDivider = find((el) => hasClass(el, 'section-divider'), [body]);
    if (firstDivider && DomUtils.findOne((el) => el === firstDivider, DomUtils.findAll((el) => hasClass(el, 'section--first'), [body]), true)) DomUtils.removeElement(firstDivider);
    // The featured picture is the cover; when it opens the story, it is not shown twice.
    let cover: ImportPost['cover'] = null;
    const featured = find((el) => el.name === 'img' && el.attribs['data-is-featured'] === 'true', [body]);
    if (featured?.attribs.src && /^https:\/\//.test(featured.attribs.src)) {
      cover = { kind: 'url', url: featured.attribs.src };
      const grafs = DomUtils.findAll((el) => hasClass(el, 'graf'), [body]);
      const figure = grafs.find((el) => DomUtils.findOne((inner) => inner === featured, [el], true));
      if (figure && grafs[0] === figure) DomUtils.removeElement(figure);
    }

    const authorLink = find((el) => el.name === 'a' && hasClass(el, 'p-author'));
    const authorId = authorLink ? (/\/(@[^/?#]+)/.exec(authorLink.attribs.href ?? '')?.[1] ?? text(authorLink)) : null;
    if (authorLink && authorId && !authors.has(authorId)) authors.set(authorId, { sourceId: authorId, name: text(authorLink) || authorId, email: null, bio: null, avatar: null });

    const base = canonical && /^https?:/.test(canonical) ? canonical : null;
    const markdown = htmlToMarkdown(DomUtils.getInnerHTML(body), base);
    const oldPaths: string[] = [];
    if (!draft) {
      if (!siteUrl && base) siteUrl = new URL(base).origin;
      const short = pathOf(time?.parent && (time.parent as Element).name === 'a' ? (time.parent as Element).attribs.href : undefined);
      for (const path of [pathOf(canonical ?? undefined), short]) {
        if (path && !takenPaths.has(path)) {
          oldPaths.push(path);
          takenPaths.add(path);
        }
      }
    }
    const published = time?.attribs.datetime ? new Date(time.attribs.datetime) : null;
    posts.push({
      sourceId,
      authorSourceId: authorId,
      title,
      markdown,
      summary,
      status: draft ? 'draft' : 'published',
      visibility: 'public',
      publishedAt: !draft && published && !Number.isNaN(published.getTime()) ? published.toISOString() : null,
      updatedAt: null,
      categories: [],
      tags: [],
      cover,
      images: markdownImageUrls(markdown).filter((url) => /^https?:/.test(url)).map((url) => ({ ref: { kind: 'url', url }, inMarkdown: url })),
      oldPaths,
      comments: [],
    });
    await handOnPosts(posts, options);
  }
  return { source: 'medium', siteUrl, authors: [...authors.values()], posts, subscribers: [], skipped };
}
