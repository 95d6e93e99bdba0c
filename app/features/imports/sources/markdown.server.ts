import path from 'node:path/posix';
import { type ArchiveEntries, ArchiveRefused, type ImportBundle, type ImportImageRef, handOnPosts, type ImportPost, type ReadOptions } from '../import-model';
import { imageTargets, locateImage, MISSING_IMAGE } from '../markdown-images';
import { readPostFile } from './front-matter.server';

/**
 * A zip of a static site's Markdown (docs/decisions/072): Jekyll's `_posts/YYYY-MM-DD-slug.md`
 * (and `_drafts/`), Hugo's `content/posts/**` (page bundles' `index.md` too); YAML, TOML or JSON
 * front matter. The archive may wrap the site in one folder. Old paths are Jekyll's and Hugo's
 * default permalinks plus whatever the front matter names (`aliases`, `redirect_from`, `url`).
 */

/** Posts handed on at a time when the scan asks for them as they are read (docs/decisions/095). */
const MARKDOWN_FILE = /\.(md|markdown|mdown)$/i;
const JEKYLL_POST = /(^|\/)_(posts|drafts)\/(?:.*\/)?(\d{4})-(\d{2})-(\d{2})-([^/]+)\.(md|markdown|mdown)$/i;
const HUGO_POST = /(^|\/)content\/(posts?|blog)\/(.+)\.(md|markdown|mdown)$/i;

type Data = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : value instanceof Date ? value.toISOString() : null);
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(str).filter((v): v is string => v !== null) : typeof value === 'string' ? value.split(/[,\s]+/).filter(Boolean) : [];
const iso = (value: unknown): string | null => {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  const text = str(value);
  if (!text) return null;
  // Jekyll's own form, `2018-03-01 10:00:00 +0000`, as ISO 8601.
  const jekyll = /^(\d{4}-\d{2}-\d{2}) (\d{1,2}:\d{2}(?::\d{2})?)(?:\s*([+-]\d{2}):?(\d{2}))?$/.exec(text);
  const date = new Date(jekyll ? `${jekyll[1]}T${jekyll[2]!.padStart(jekyll[2]!.length === 4 || jekyll[2]!.length === 7 ? jekyll[2]!.length + 1 : 0, '0')}${jekyll[3] ? `${jekyll[3]}:${jekyll[4]}` : 'Z'}` : text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};
const slugify = (text: string) =>
  text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');

/** Whether the archive looks like a Jekyll or Hugo site. */
export function isMarkdownSite(files: string[]): boolean {
  return files.some((name) => JEKYLL_POST.test(name) || HUGO_POST.test(name));
}

function coverOf(data: Data): string | null {
  for (const key of ['cover', 'image', 'feature_image', 'featured_image', 'header']) {
    const value = data[key];
    if (typeof value === 'string' && value) return value;
    if (value && typeof value === 'object') {
      const inner = (value as Data).image ?? (value as Data).src ?? (value as Data).teaser;
      if (typeof inner === 'string' && inner) return inner;
    }
  }
  return null;
}

export async function readMarkdown(entries: ArchiveEntries, options: ReadOptions = {}): Promise<ImportBundle> {
  const files = entries.list();
  const fileSet = new Set(files);
  const posts = files.filter((name) => (JEKYLL_POST.test(name) || HUGO_POST.test(name)) && MARKDOWN_FILE.test(name) && !/(^|\/)_index\.[a-z]+$/i.test(name));
  if (posts.length === 0) throw new ArchiveRefused('The archive holds no Jekyll (_posts/) or Hugo (content/posts/) Markdown posts.');
  const siteUrl = options.siteUrl ?? null;
  const bundle: ImportBundle = { source: 'markdown', siteUrl, authors: [], posts: [], subscribers: [], skipped: [] };
  const authors = new Map<string, string>();

  for (const file of posts.sort()) {
    const jekyll = JEKYLL_POST.exec(file);
    const hugo = jekyll ? null : HUGO_POST.exec(file);
    // The site's root: what stands before _posts/ or content/ (a zip often wraps the site in a folder).
    const root = file.slice(0, (jekyll ?? hugo)!.index + (jekyll ?? hugo)![1]!.length);
    const read = await readPostFile(entries, file, bundle.skipped);
    if (!read) continue;
    const { data, body } = read;
    const hugoName = hugo ? (/(^|\/)index$/.test(hugo[3]!) ? path.basename(path.dirname(`/${hugo[3]}`)) : path.basename(hugo[3]!)) : null;
    const slug = str(data.slug) ?? (jekyll ? jekyll[6]! : hugoName!);
    const fileDate = jekyll ? `${jekyll[3]}-${jekyll[4]}-${jekyll[5]}T00:00:00.000Z` : null;
    const publishedAt = iso(data.date) ?? iso(data.publishDate) ?? fileDate;
    const categories = [...list(data.categories), ...list(data.category)];
    const draft = data.draft === true || data.published === false || (jekyll?.[2] ?? '').toLowerCase() === 'drafts';

    // An image is looked for beside the post, then from the site's root, then in Hugo's static/.
    const dir = path.dirname(file);
    const candidates = (target: string) => {
      const clean = decodeURIComponent(target.split(/[?#]/)[0]!);
      if (/^[a-z]+:/i.test(clean) || clean.startsWith('//')) return [];
      return clean.startsWith('/') ? [`${root}${clean.slice(1)}`, `${root}static/${clean.slice(1)}`, `${root}assets/${clean.slice(1)}`] : [path.join(dir, clean), `${root}${clean}`, `${root}static/${clean}`];
    };
    const images: ImportPost['images'] = [];
    for (const target of imageTargets(body)) {
      const ref = locateImage(target, fileSet, candidates, siteUrl);
      if (ref) images.push({ ref, inMarkdown: target });
      else bundle.skipped.push({ item: `${file}: image ${target.slice(0, 300)}`, reason: MISSING_IMAGE });
    }
    const coverTarget = coverOf(data);
    const cover: ImportImageRef | null = coverTarget ? locateImage(coverTarget, fileSet, candidates, siteUrl) : null;
    if (coverTarget && !cover) bundle.skipped.push({ item: `${file}: cover ${coverTarget.slice(0, 300)}`, reason: MISSING_IMAGE });

    const date = publishedAt ? new Date(publishedAt) : null;
    const oldPaths = new Set<string>();
    if (date && jekyll) {
      const [y, m, d] = [jekyll[3], jekyll[4], jekyll[5]];
      const prefix = categories.length ? `/${categories.map(slugify).join('/')}` : '';
      oldPaths.add(`${prefix}/${y}/${m}/${d}/${jekyll[6]}.html`);
    }
    if (hugo) oldPaths.add(`/${hugo[2]!.toLowerCase()}/${slugify(slug) || slug}/`);
    for (const alias of [...list(data.aliases), ...list(data.redirect_from), ...list(data.url), ...list(data.permalink)]) {
      if (alias.startsWith('/')) oldPaths.add(alias);
      else if (/^https?:\/\//.test(alias)) oldPaths.add(new URL(alias).pathname);
      else oldPaths.add(`/${alias}`);
    }
    const author = str(data.author) ?? (Array.isArray(data.authors) ? str(data.authors[0]) : null);
    if (author && !authors.has(author)) authors.set(author, author);

    bundle.posts.push({
      sourceId: file.slice(root.length),
      authorSourceId: author,
      title: str(data.title) ?? slug.replace(/[-_]+/g, ' '),
      markdown: body.trim(),
      summary: str(data.summary) ?? str(data.description) ?? str(data.excerpt) ?? str(data.subtitle),
      status: draft ? 'draft' : 'published',
      visibility: 'public',
      publishedAt,
      updatedAt: iso(data.lastmod) ?? iso(data.last_modified_at) ?? iso(data.updated) ?? null,
      categories,
      tags: [...list(data.tags), ...list(data.keywords)],
      cover,
      images,
      oldPaths: [...oldPaths],
      comments: [],
    });
    // Each post is whole once read: handed on in chunks, none kept (docs/decisions/095).
    await handOnPosts(bundle.posts, options);
  }
  bundle.authors = [...authors.keys()].map((name) => ({ sourceId: name, name, email: null, bio: null, avatar: null }));
  return bundle;
}
