import { createHash } from 'node:crypto';
import { BLOG_CATEGORIES, BLOG_LIMITS, BLOG_TYPES, type BlogCategory, type BlogType } from '~/features/blogs/blogs.constants';
import { discardImage, fetchImportedImage, imageFocus, storeImportedImage } from '~/features/images/images.service.server';
import { federates } from '~/features/federation/handles.service.server';
import { followImportedAccount } from '~/features/federation/remote-following.service.server';
import { importSubscriber } from '~/features/newsletter/newsletter.service.server';
import { adoptImportedTags } from '~/features/tags/tags.service.server';
import { giveWay, type ReadersSignal } from '~/kernel/readers-busy.server';
import { newId } from '~/lib/core/ids.server';
import { isAppError } from '~/lib/core/errors';
import type { ServiceContext } from '~/lib/core/service-context';
import { REMOTE_FOLLOWING_TEXTS } from '~/lib/texts/remote-following';
import { type ArchiveEntries, type ImportBundle, type ImportComment, type ImportImageRef, type ImportPost, type ImportRemoteFollow, type ImportSubscriber } from './import-model';
import { type ImportOptions, NO_CATEGORY } from './imports.schema';
import * as repo from './imports.repo.server';
import { firstSentence } from './markdown-images';
import type { AuthorOutcome } from './site-authors.service.server';

/**
 * The writer of an import (docs/decisions/072): a bundle becomes rows. Each post is written in
 * one transaction with its old paths and comments, or not at all; its images are stored first
 * (through our pipeline) and removed again when its transaction fails. Every item is recorded
 * by (source, kind, source id), so importing the same archive again changes nothing.
 */

export interface ImportReport {
  source: ImportBundle['source'];
  /** The category mapping used: every source name that appeared, with the category it became (NO_CATEGORY: the posts without one). */
  categoryMapping: Record<string, BlogCategory>;
  posts: { imported: number; unchanged: number; skipped: number };
  comments: { imported: number; skipped: number };
  images: { stored: number; reused: number; missing: number };
  subscribers: { pending: number; confirmed: number; existing: number; skipped: number };
  /** Accounts on other servers followed again from the importing writer (our own export, docs/decisions/089); those not followed are in `skipped`. */
  remoteFollows?: { requested: number; existing: number; skipped: number };
  legacyPaths: number;
  /** A site import's authors: whose posts went to which account, a new one or one already here (docs/decisions/083). */
  authors?: AuthorOutcome[];
  /** Our post id → the tags it was given, as the tags feature kept them (tidied; those that did not fit are in `skipped`). */
  tags: { blogId: string; names: string[] }[];
  /** What was left out, and why. */
  skipped: { item: string; reason: string }[];
}

const DEFAULT_CATEGORY: BlogCategory = 'Personal';

/** Words that tell a source's category or tag apart; checked in this order. */
const CATEGORY_WORDS: [BlogCategory, RegExp][] = [
  ['Travelling & Photography', /travel|trip|journey|photo|camera|landscape|voyage|wander|hiking|holiday/i],
  ['Fashion & Beauty', /fashion|beauty|style|make-?up|outfit|skin-?care|cosmetic/i],
  ['Food & Health', /food|recipe|cook|health|fitness|nutrition|bak(e|ing)|diet|wellness|vegan|running/i],
  ['Technology', /tech|programming|\bcode|coding|software|\bdev|javascript|typescript|python|rust|linux|\bweb\b|\bai\b|computer|engineering|gadget/i],
  ['Education', /educat|learning|teach|school|study|tutorial|science|history|books?\b|reading|course/i],
  ['DIY & Craft Blogs', /\bdiy\b|craft|knit|sew|wood-?work|garden|maker|handmade|crochet/i],
  ['Personal', /personal|life|diary|journal|thoughts|musings|family/i],
];

/** One of our seven for a source's name: itself when it is one, else by its words, else Personal. */
export function defaultCategory(name: string): BlogCategory {
  const own = BLOG_CATEGORIES.find((category) => category.toLowerCase() === name.trim().toLowerCase());
  if (own) return own;
  return CATEGORY_WORDS.find(([, words]) => words.test(name))?.[0] ?? DEFAULT_CATEGORY;
}

/** The mapping's key a post's category comes from: its first category, else its first tag, else NO_CATEGORY. */
function categoryKey(post: ImportPost): string {
  const name = post.categories[0] ?? post.tags[0] ?? '';
  return name.trim() ? name : NO_CATEGORY;
}

/** The category a key becomes unless the importer chose otherwise: a name by its words, no name Personal. */
const categoryOf = (key: string): BlogCategory => (key === NO_CATEGORY ? DEFAULT_CATEGORY : defaultCategory(key));

/**
 * The default mapping of every name the bundle's posts take their category from (what the screen
 * shows), with NO_CATEGORY for the posts that have none: one choice for all of them (decision 090).
 */
export function defaultCategoryMapping(bundle: ImportBundle): Record<string, BlogCategory> {
  const mapping: Record<string, BlogCategory> = {};
  for (const post of bundle.posts) {
    const key = categoryKey(post);
    if (!(key in mapping)) mapping[key] = categoryOf(key);
  }
  return mapping;
}

/** How many items the bundle has to write (the progress bar's whole). */
export const bundleSize = (bundle: ImportBundle) => bundle.posts.length + bundle.subscribers.length + (bundle.remoteFollows?.length ?? 0);

/** The bundle's subscribers that stay out whatever the importer does: unsubscribed, bounced or deleted at the source. */
export const subscribersLeftOut = (bundle: ImportBundle) => bundle.subscribers.filter((subscriber) => subscriber.status !== 'active').length;

/** One item to write, in the bundle's order: its posts, then its subscribers, then the accounts on other servers its writer followed. */
export type BundleItem = { kind: 'post'; post: ImportPost } | { kind: 'subscriber'; subscriber: ImportSubscriber } | { kind: 'follow'; follow: ImportRemoteFollow };

/**
 * What the writer needs of a bundle: what it is, what its reader left out, and its items from a
 * place on, whether they are in memory or staged in the database by a run's scan (docs/decisions/091).
 */
export interface BundleToWrite {
  source: ImportBundle['source'];
  skipped: ImportBundle['skipped'];
  /** The old site's name (`oldSiteName`), told to the subscribers of a whole site's import (docs/decisions/095). */
  siteName: string;
  /** Posts, subscribers and followed accounts in all. */
  size: number;
  /** The items from position `from` (0: the first post) to the end. */
  items(from: number): AsyncIterable<BundleItem>;
}

/** The items of a bundle in memory, in the order they are written. */
export function* bundleItems(bundle: ImportBundle): Generator<BundleItem> {
  for (const post of bundle.posts) yield { kind: 'post', post };
  for (const subscriber of bundle.subscribers) yield { kind: 'subscriber', subscriber };
  for (const follow of bundle.remoteFollows ?? []) yield { kind: 'follow', follow };
}

/**
 * What the old site is called in a whole site's import: its title in the archive, else its host,
 * else '' (the mail then names neither). One line of at most 100 characters: it goes into a
 * mail's subject.
 */
export function oldSiteName(bundle: Pick<ImportBundle, 'siteTitle' | 'siteUrl'>): string {
  const title = (bundle.siteTitle ?? '').replace(/\s+/g, ' ').trim();
  if (title) return clip(title, 100);
  try {
    return bundle.siteUrl ? new URL(bundle.siteUrl).host : '';
  } catch {
    return '';
  }
}

const inMemory = (bundle: ImportBundle): BundleToWrite => ({
  source: bundle.source,
  skipped: bundle.skipped,
  siteName: oldSiteName(bundle),
  size: bundleSize(bundle),
  items: async function* (from) {
    let position = 0;
    for (const item of bundleItems(bundle)) if (position++ >= from) yield item;
  },
});

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const validDate = (value: string | null) => (value && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

interface PostImages {
  /** inMarkdown → our URL */
  urls: Map<string, string>;
  cover: string | null;
  /** Stored for this post (removed again when its transaction fails). */
  stored: string[];
}

/** The import's state across posts: images already stored by content hash or by old address. */
interface Run {
  ctx: ServiceContext;
  ownerId: string;
  source: ImportBundle['source'];
  entries: ArchiveEntries;
  options: ImportOptions;
  runId: string | null;
  report: ImportReport;
  byRef: Map<string, string | null>;
  skipAuthors: ReadonlySet<string>;
  /** A whole site's import: the old site's name its subscribers' mail tells; null for a writer's own. */
  siteName: string | null;
  /** While they are busy, the import gives way (WriteHooks's `readers`). */
  readers: ReadersSignal | undefined;
}

const refKey = (ref: ImportImageRef) => (ref.kind === 'archive' ? `archive:${ref.path}` : `url:${ref.url}`);
const refName = (ref: ImportImageRef) => (ref.kind === 'archive' ? ref.path : ref.url);

/** An image as our URL: the same bytes are stored once (by content hash, across imports); null when it cannot be had. */
async function adoptImage(run: Run, ref: ImportImageRef, post: string, stored: string[]): Promise<string | null> {
  const key = refKey(ref);
  if (run.byRef.has(key)) return run.byRef.get(key)!;
  let url: string | null = null;
  try {
    const bytes = ref.kind === 'archive' ? await run.entries.read(ref.path) : await fetchImportedImage(run.ctx, ref.url);
    const hash = sha256(bytes);
    const known = await repo.findImportItem(run.ctx.db, 'sha256', 'image', hash);
    if (known) {
      url = known;
      run.report.images.reused += 1;
    } else {
      url = (await storeImportedImage(run.ctx, bytes, { lean: run.readers?.busy() ?? false })).url;
      stored.push(url);
      await repo.insertImportItem(run.ctx.db, { source: 'sha256', kind: 'image', source_id: hash, target_id: url, run_id: run.runId, created_at: run.ctx.now().toISOString() });
      run.report.images.stored += 1;
    }
  } catch (error) {
    run.report.images.missing += 1;
    run.report.skipped.push({ item: `${post}: image ${refName(ref).slice(0, 300)}`, reason: (error as Error).message.replace(/^photo: |^image: /, '') });
  }
  run.byRef.set(key, url);
  return url;
}

async function postImages(run: Run, post: ImportPost): Promise<PostImages> {
  const result: PostImages = { urls: new Map(), cover: null, stored: [] };
  for (const image of post.images) {
    const url = await adoptImage(run, image.ref, post.title || post.sourceId, result.stored);
    if (url) result.urls.set(image.inMarkdown, url);
  }
  if (post.cover) result.cover = await adoptImage(run, post.cover, post.title || post.sourceId, result.stored);
  // No cover: the post's first picture stands in; without any, the post has no photo (docs/decisions/072).
  result.cover ??= result.urls.values().next().value ?? null;
  return result;
}

/** The Markdown with each image the source named replaced by ours (longest first, so no name is cut inside another). */
function withOwnImages(markdown: string, urls: Map<string, string>): string {
  let out = markdown;
  for (const [from, to] of [...urls].sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
  return out;
}

/** Parents before their replies; a reply whose parent is missing becomes a top-level comment. */
function threadOrder(comments: ImportComment[]): ImportComment[] {
  const ids = new Set(comments.map((c) => c.sourceId));
  const children = new Map<string | null, ImportComment[]>();
  for (const comment of comments) {
    const parent = comment.parentSourceId && ids.has(comment.parentSourceId) && comment.parentSourceId !== comment.sourceId ? comment.parentSourceId : null;
    children.set(parent, [...(children.get(parent) ?? []), comment]);
  }
  const ordered: ImportComment[] = [];
  const visit = (parent: string | null) => {
    for (const comment of (children.get(parent) ?? []).sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
      ordered.push(comment);
      visit(comment.sourceId);
    }
  };
  visit(null);
  return ordered;
}

/** The longest reply chain kept; deeper replies hang under the last kept level (decision 060 shows threads, not towers). */
const MAX_DEPTH = 50;

async function writeComments(run: Run, trx: ServiceContext['db'], post: ImportPost, blogId: string, now: string): Promise<number> {
  const placed = new Map<string, { id: string; rootId: string; depth: number; parentId: string | null }>();
  let count = 0;
  for (const comment of threadOrder(post.comments)) {
    const label = `${post.title || post.sourceId}: comment by ${comment.authorName}`;
    const text = comment.text.trim();
    if (!comment.approved) {
      run.report.comments.skipped += 1;
      run.report.skipped.push({ item: label, reason: 'it was not approved at the source' });
      continue;
    }
    if (!text) {
      run.report.comments.skipped += 1;
      run.report.skipped.push({ item: label, reason: 'it is empty' });
      continue;
    }
    const placedParent = comment.parentSourceId ? placed.get(comment.parentSourceId) : undefined;
    // Past the deepest level kept, a reply hangs beside its parent instead of under it.
    const parent = placedParent && placedParent.depth >= MAX_DEPTH ? { ...placedParent, id: placedParent.parentId!, depth: placedParent.depth - 1 } : placedParent;
    const name = clip(comment.authorName.trim() || 'Someone', BLOG_LIMITS.name);
    const authorId = await repo.ensureImportedAuthor(trx, {
      id: newId(),
      uri: `import:${createHash('sha256').update(`${name}\n${comment.authorUrl ?? ''}`).digest('hex')}`,
      name,
      profileUrl: comment.authorUrl && /^https?:\/\//.test(comment.authorUrl) ? comment.authorUrl : null,
      now,
    });
    const id = newId();
    const depth = parent ? parent.depth + 1 : 0;
    const parentId = parent ? parent.id : null;
    await repo.insertImportedComment(trx, {
      id,
      blog_id: blogId,
      user_id: null,
      remote_actor_id: authorId,
      parent_id: parentId,
      root_id: parent ? parent.rootId : id,
      depth,
      comment_text: clip(text, BLOG_LIMITS.commentText),
      commented_at: validDate(comment.createdAt) ?? now,
      removed_at: null,
      removed_reason: null,
      edited_at: null,
      pending_since: null,
      pinned_at: null,
      hidden_at: null,
      hidden_by: null,
      deleted_at: null,
    });
    await repo.insertImportItem(trx, { source: run.source, kind: 'comment', source_id: `${post.sourceId}#${comment.sourceId}`, target_id: id, run_id: run.runId, created_at: now });
    placed.set(comment.sourceId, { id, rootId: parent ? parent.rootId : id, depth, parentId });
    count += 1;
  }
  return count;
}

class AlreadyImported extends Error {}

async function writePost(run: Run, post: ImportPost): Promise<void> {
  const { ctx, source, options, report } = run;
  const label = post.title || post.sourceId;
  if (await repo.findImportItem(ctx.db, source, 'post', post.sourceId)) {
    report.posts.unchanged += 1;
    return;
  }
  if (post.authorSourceId && run.skipAuthors.has(post.authorSourceId)) {
    report.posts.skipped += 1;
    report.skipped.push({ item: label, reason: 'its author was left out of the import' });
    return;
  }
  const markdownLength = post.markdown.length;
  if (markdownLength > BLOG_LIMITS.long_description) {
    report.posts.skipped += 1;
    report.skipped.push({ item: label, reason: `its body is ${markdownLength} characters long, over the ${BLOG_LIMITS.long_description} a post holds` });
    return;
  }
  const images = await postImages(run, post);
  const now = ctx.now().toISOString();
  const body = withOwnImages(post.markdown, images.urls);
  const title = clip(post.title.trim() || firstSentence(body, 80) || 'Untitled', BLOG_LIMITS.title);
  const summary = clip((post.summary?.trim() || firstSentence(body, BLOG_LIMITS.short_description) || title).replace(/\s+/g, ' '), BLOG_LIMITS.short_description);
  const key = categoryKey(post);
  const category = options.categories[key] ?? categoryOf(key);
  report.categoryMapping[key] = category;
  const createdAt = validDate(post.publishedAt) ?? validDate(post.updatedAt) ?? now;
  const ownerId = (post.authorSourceId && options.authors[post.authorSourceId]) || run.ownerId;
  const focus = images.cover ? await imageFocus(ctx, images.cover) : null;
  const blogId = newId();
  let keptTags: string[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Claimed first: a second worker on the same item waits here, then finds it taken.
      if (!(await repo.insertImportItem(trx, { source, kind: 'post', source_id: post.sourceId, target_id: blogId, run_id: run.runId, created_at: now }))) throw new AlreadyImported();
      await repo.insertImportedBlog(trx, {
        id: blogId,
        owner_id: ownerId,
        title,
        category,
        type: (BLOG_TYPES as readonly (string | null | undefined)[]).includes(post.own?.type) ? (post.own!.type as BlogType) : 'written content',
        short_description: summary,
        long_description: body.trim() ? body : summary,
        details: post.own?.details ? clip(post.own.details, BLOG_LIMITS.details) : null,
        // Members-only and paid posts have no audience here yet: they come Hidden, like drafts.
        availability: post.status === 'published' && post.visibility === 'public' ? 'Public' : 'Hidden',
        photo: images.cover,
        photo_focus: null,
        photo_focus_x: focus?.x ?? null,
        photo_focus_y: focus?.y ?? null,
        created_at: createdAt,
        updated_at: validDate(post.updatedAt) ?? createdAt,
        held_until: null,
        pending_since: null,
        removed_at: null,
        removed_reason: null,
      });
      for (const path of new Set(post.oldPaths)) {
        const normal = normalLegacyPath(path);
        if (!normal) continue;
        if (await repo.insertLegacyPath(trx, { path: normal, blog_id: blogId, created_at: now })) report.legacyPaths += 1;
        else report.skipped.push({ item: `${label}: old path ${normal}`, reason: 'another post answers that path already' });
      }
      const tags = await adoptImportedTags({ ...ctx, db: trx }, blogId, post.tags);
      keptTags = tags.kept;
      for (const name of tags.left) report.skipped.push({ item: `${label}: tag ${name}`, reason: 'not a tag this site can keep (letters and digits in words, a few per post)' });
      const comments = await writeComments(run, trx, post, blogId, now);
      if (comments > 0) await repo.setCommentsCount(trx, blogId, comments);
      report.comments.imported += comments;
    });
  } catch (error) {
    if (error instanceof AlreadyImported) {
      report.posts.unchanged += 1;
      return;
    }
    for (const url of images.stored) {
      await discardImage(ctx, url);
      await repo.deleteImportItemsByTarget(ctx.db, 'image', url);
      for (const [key, value] of run.byRef) if (value === url) run.byRef.delete(key);
    }
    report.posts.skipped += 1;
    report.skipped.push({ item: label, reason: `it could not be written (${(error as Error).message.slice(0, 300)})` });
    return;
  }
  report.posts.imported += 1;
  if (post.status === 'published' && post.visibility !== 'public') report.skipped.push({ item: label, reason: `it was for ${post.visibility} readers at the source: imported Hidden` });
  if (keptTags.length > 0) report.tags.push({ blogId, names: keptTags });
}

/**
 * Each post's old addresses (those an import brought), for an export to carry as `aliases`, so
 * a move elsewhere keeps them answering too (docs/decisions/074).
 */
export async function legacyPathsOf(ctx: ServiceContext, blogIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const row of await repo.legacyPathsOf(ctx.db, blogIds)) out.set(row.blog_id, [...(out.get(row.blog_id) ?? []), row.path]);
  return out;
}

/** A site-relative path as the 301 lookup keys it: leading '/', no query or fragment, at most 2048 characters. */
export function normalLegacyPath(path: string): string | null {
  let clean = path.trim().split(/[?#]/)[0]!;
  if (/^https?:\/\//i.test(clean)) {
    try {
      clean = new URL(clean).pathname;
    } catch {
      return null;
    }
  }
  if (!clean.startsWith('/')) clean = `/${clean}`;
  try {
    clean = decodeURI(clean);
  } catch {
    // kept as given
  }
  if (clean === '/' || clean.length > 2048) return null;
  return clean;
}

export const emptyReport = (source: ImportBundle['source']): ImportReport => ({
  source,
  categoryMapping: {},
  posts: { imported: 0, unchanged: 0, skipped: 0 },
  comments: { imported: 0, skipped: 0 },
  images: { stored: 0, reused: 0, missing: 0 },
  subscribers: { pending: 0, confirmed: 0, existing: 0, skipped: 0 },
  legacyPaths: 0,
  tags: [],
  skipped: [],
});

export interface WriteHooks {
  runId?: string;
  /** Items already written by an earlier part of this run (posts, then subscribers, in the bundle's order). */
  start?: number;
  /** The report so far (an earlier part's). */
  report?: ImportReport;
  /** Stop after the item under way once this time has passed (a job hands the rest to its continuation). */
  deadline?: number;
  progress?: (done: number, total: number) => Promise<void>;
  /** Source authors whose posts stay out (a site import's "leave out"). */
  skipAuthors?: ReadonlySet<string>;
  /** The pictures an earlier part adopted or could not have, by reference (its answer's `images`). */
  images?: Record<string, string | null>;
  /**
   * Readers of the site this process serves (docs/decisions/097): while they are busy, each item
   * is followed by a wait about six times its own time (never past `deadline`), and its pictures
   * are re-encoded on one thread. Absent: full speed (a command with no readers).
   */
  readers?: ReadersSignal;
}

/**
 * Writes the bundle's posts for `ownerId` (or, with `options.authors`, for the accounts its
 * authors are mapped onto), then its subscribers. Answers the report and how far it got.
 */
export async function writeBundle(
  ctx: ServiceContext,
  ownerId: string,
  bundle: ImportBundle | BundleToWrite,
  entries: ArchiveEntries,
  options: ImportOptions,
  hooks: WriteHooks = {},
): Promise<{ report: ImportReport; done: number; finished: boolean; images: Record<string, string | null> }> {
  const toWrite = 'items' in bundle ? bundle : inMemory(bundle);
  const report = hooks.report ?? { ...emptyReport(toWrite.source), skipped: [...toWrite.skipped] };
  const run: Run = { ctx, ownerId, source: toWrite.source, entries, options, runId: hooks.runId ?? null, report, byRef: new Map(Object.entries(hooks.images ?? {})), skipAuthors: hooks.skipAuthors ?? new Set(), siteName: options.site ? toWrite.siteName : null, readers: hooks.readers };
  let done = hooks.start ?? 0;
  let written = 0;
  const overdue = () => hooks.deadline !== undefined && Date.now() > hooks.deadline;
  for await (const item of toWrite.items(done)) {
    // One item at least, however late the part began: a run always moves on.
    if (written > 0 && overdue()) return { report, done, finished: false, images: Object.fromEntries(run.byRef) };
    const started = performance.now();
    if (item.kind === 'post') await writePost(run, item.post);
    else if (item.kind === 'subscriber') await writeSubscriber(run, item.subscriber);
    else await refollow(ctx, ownerId, item.follow, report);
    done += 1;
    written += 1;
    await hooks.progress?.(done, toWrite.size);
    if (hooks.readers) await giveWay(hooks.readers, performance.now() - started, hooks.deadline);
  }
  return { report, done, finished: true, images: Object.fromEntries(run.byRef) };
}

async function writeSubscriber({ ctx, options, report, source, ownerId, siteName }: Run, subscriber: ImportSubscriber): Promise<void> {
  const email = subscriber.email.trim().toLowerCase();
  if (subscriber.status !== 'active') {
    report.subscribers.skipped += 1;
    report.skipped.push({ item: `subscriber ${email}`, reason: `${subscriber.status} at the source` });
  } else if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) {
    report.subscribers.skipped += 1;
    report.skipped.push({ item: `subscriber ${email.slice(0, 80)}`, reason: 'not an email address' });
  } else {
    const outcome = await importSubscriber(ctx, { email, createdAt: validDate(subscriber.createdAt), consented: options.consented, importedFrom: source, importedBy: ownerId, importedSite: siteName });
    if (outcome === 'exists') report.subscribers.existing += 1;
    else report.subscribers[outcome] += 1;
  }
}

/** A followed account of the export asked again from the writer's actor; with federation off, or refused, it is listed in the report. */
async function refollow(ctx: ServiceContext, ownerId: string, follow: ImportRemoteFollow, report: ImportReport): Promise<void> {
  const counts = (report.remoteFollows ??= { requested: 0, existing: 0, skipped: 0 });
  const item = `followed account ${follow.handle ? `${follow.handle.slice(0, 200)} (${follow.actorUri})` : follow.actorUri}`;
  if (!federates(ctx)) {
    counts.skipped += 1;
    report.skipped.push({ item, reason: REMOTE_FOLLOWING_TEXTS.importedWhileOff });
    return;
  }
  try {
    counts[await followImportedAccount(ctx, ownerId, { actorUri: follow.actorUri })] += 1;
  } catch (error) {
    if (!isAppError(error)) throw error;
    counts.skipped += 1;
    report.skipped.push({ item, reason: error.message });
  }
}

/** Where an imported post's old path now is (`/blogs/<id>`), or null; tried with and without its trailing slash. */
export async function legacyRedirect(ctx: ServiceContext, rawPath: string): Promise<string | null> {
  const path = normalLegacyPath(rawPath);
  if (!path) return null;
  const other = path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
  const blogId = (await repo.findLegacyTarget(ctx.db, path)) ?? (other.length > 1 ? await repo.findLegacyTarget(ctx.db, other) : undefined);
  return blogId ? `/blogs/${blogId}` : null;
}
