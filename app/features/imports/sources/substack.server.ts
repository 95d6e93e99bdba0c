/**
 * Substack's export zip as an import bundle (docs/decisions/073): `posts.csv` lists the posts
 * (`post_id` is `<number>.<slug>`), each body is `posts/<post_id>.html`, and the subscribers are
 * in `email_list*.csv`, which may also come alone (docs/decisions/090). Substack names no author
 * and keeps no comments in the export.
 */
import { htmlToMarkdown, htmlToText, markdownImageUrls } from '../html-to-markdown.server.ts';
import { type ArchiveEntries, ArchiveRefused, handOnPosts, type ImportBundle, type ImportPost, type ImportSubscriber, type ReadOptions } from '../import-model.ts';
import { csvFilesWithHeader, csvRows as csv, gatherSubscribers, isoOrNull, truthy } from './csv.server.ts';

/** Substack's audiences: everyone, free subscribers only, paid (and founding) members only. */
const AUDIENCE: Record<string, ImportPost['visibility']> = { everyone: 'public', only_free: 'members', only_paid: 'paid', founding: 'paid' };
/** Post types that are posts here; a discussion thread is not. */
const POST_TYPES = new Set(['newsletter', 'podcast', 'video', '']);

/**
 * Substack's export as a bundle; throws ArchiveRefused when the archive holds no posts.csv.
 * `options.siteUrl`: the publication's address (`https://name.substack.com` or its own domain),
 * when the person names it. Each post is whole once its body is read: with `options.onPosts`, they
 * are handed on in chunks as they are read (docs/decisions/095).
 */
export async function readSubstack(entries: ArchiveEntries, options: ReadOptions = {}): Promise<ImportBundle> {
  const files = entries.list();
  // The export's files may sit in one folder of the zip: everything is read relative to posts.csv.
  const postsCsv = files.filter((path) => /(^|\/)posts\.csv$/i.test(path)).sort((a, b) => a.length - b.length)[0];
  if (!postsCsv) throw new ArchiveRefused('The archive holds no posts.csv: it is not a Substack export.');
  const root = postsCsv.slice(0, postsCsv.length - 'posts.csv'.length);
  const present = new Set(files);
  const siteUrl = options.siteUrl?.trim() || null;
  const base = siteUrl ? siteUrl.replace(/\/?$/, '/') : null;

  const skipped: ImportBundle['skipped'] = [];
  const posts: ImportPost[] = [];
  const seen = new Set<string>();
  /** Each old path → the post that has it (the first in posts.csv to claim it). */
  const takenPaths = new Map<string, string>();
  for (const row of csv(await entries.read(postsCsv), postsCsv)) {
    const postId = (row.post_id ?? '').trim();
    const title = (row.title ?? '').trim();
    const label = `post ${postId || '(no id)'} “${title || '(untitled)'}”`;
    const match = /^(\d+)(?:\.(.+))?$/.exec(postId);
    if (!match) {
      skipped.push({ item: label, reason: 'its post_id is not Substack’s <number>.<slug>' });
      continue;
    }
    if (seen.has(match[1]!)) {
      skipped.push({ item: label, reason: 'listed twice in posts.csv' });
      continue;
    }
    seen.add(match[1]!);
    const type = (row.type ?? '').trim().toLowerCase();
    if (!POST_TYPES.has(type)) {
      skipped.push({ item: label, reason: type === 'thread' ? 'a discussion thread, not a post' : `a ${type}, not a post` });
      continue;
    }
    const bodyPath = `${root}posts/${postId}.html`;
    if (!present.has(bodyPath)) {
      skipped.push({ item: label, reason: `its body (posts/${postId}.html) is not in the archive` });
      continue;
    }
    let markdown = htmlToMarkdown((await entries.read(bodyPath)).toString('utf8'), base);
    const podcast = (row.podcast_url ?? '').trim();
    if (podcast && /^https:\/\//.test(podcast)) markdown = `${podcast}\n\n${markdown}`.trim();

    const published = truthy(row.is_published);
    const slug = match[2]?.trim() ?? '';
    const oldPaths: string[] = [];
    if (published && slug) {
      const path = `/p/${slug}`;
      const first = takenPaths.get(path);
      if (first === undefined) {
        oldPaths.push(path);
        takenPaths.set(path, label);
      } else {
        // Two posts cannot both answer one address: the first keeps it, and the report says so.
        skipped.push({ item: `${label}: old path ${path}`, reason: `${first} has that path first` });
      }
    }
    const audience = (row.audience ?? 'everyone').trim().toLowerCase() || 'everyone';
    posts.push({
      sourceId: match[1]!,
      authorSourceId: null,
      title,
      markdown,
      summary: htmlToText(row.subtitle ?? '') || null,
      status: published ? 'published' : 'draft',
      visibility: AUDIENCE[audience] ?? 'paid',
      publishedAt: published ? isoOrNull(row.post_date) : null,
      updatedAt: null,
      categories: [],
      tags: [],
      cover: null,
      images: markdownImageUrls(markdown).filter((url) => /^https?:/.test(url)).map((url) => ({ ref: { kind: 'url', url }, inMarkdown: url })),
      oldPaths,
      comments: [],
    });
    await handOnPosts(posts, options);
  }

  const lists = files.filter((path) => path.startsWith(root) && /(^|\/)email_list[^/]*\.csv$/i.test(path)).sort();
  return { source: 'substack', siteUrl, authors: [], posts, subscribers: await readSubstackSubscribers(entries, lists, root, skipped), skipped };
}

/**
 * The columns that tell Substack's subscriber list (`email_list.<publication>.csv`: email,
 * active_subscription, expiry, plan, email_disabled, …) from any other list of addresses.
 */
export const isSubstackListHeader = (columns: string[]) => columns.includes('email') && columns.includes('email_disabled');

/** The archive's CSV files that are Substack subscriber lists, in name order. */
export const findSubstackLists = (entries: ArchiveEntries): Promise<string[]> => csvFilesWithHeader(entries, isSubstackListHeader);

/** The subscribers of the given lists, each address once; rows without an address go to `skipped` (named without `root`). */
async function readSubstackSubscribers(entries: ArchiveEntries, files: string[], root: string, skipped: ImportBundle['skipped']): Promise<ImportSubscriber[]> {
  const list = { subscribers: [] as ImportSubscriber[], skipped, seen: new Set<string>() };
  for (const file of files) {
    gatherSubscribers(csv(await entries.read(file), file), file.slice(root.length), list, (row) => ({
      name: (row.name ?? '').trim() || null,
      // Substack marks an address it no longer mails (unsubscribed or bounced) as email_disabled.
      status: truthy(row.email_disabled) ? 'unsubscribed' : 'active',
      createdAt: isoOrNull(row.created_at),
    }));
  }
  return list.subscribers;
}

/** Substack's subscriber list uploaded alone (or zipped without posts.csv): subscribers, no posts. */
export async function readSubstackListsExport(entries: ArchiveEntries, files: string[]): Promise<ImportBundle> {
  const skipped: ImportBundle['skipped'] = [];
  return { source: 'substack', siteUrl: null, authors: [], posts: [], subscribers: await readSubstackSubscribers(entries, files, '', skipped), skipped };
}
