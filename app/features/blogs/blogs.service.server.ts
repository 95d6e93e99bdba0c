import { adoptPhoto, discardImage, imageFocus } from '~/features/images/images.service.server';
import { PHOTO_FOCUS_AUTO, type PhotoFocusChoice } from '~/features/images/photo-focus';
import { assertCanWrite, holdEnd, holdOf } from '~/kernel/standing.server';
import { emit, onEvent } from '~/kernel/events.server';
import slugify from '@sindresorhus/slugify';
import { setBlogTags } from '~/features/tags/tags.service.server';
import { AppError, isAppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import { findVisibleBlog } from './blog-visibility.server';
import { listBlogComments } from './comments.service.server';
import { MESSAGES } from '~/lib/texts/messages';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { type BlogCardJson, type BlogJson, type BlogRow, presentBlog, toCard } from './blogs.presenter';
import * as repo from './blogs.repo.server';
import * as drafts from './drafts.repo.server';
import { REVISIONS_KEPT } from './blogs.constants';
import { BodyUnrenderable, renderMarkdown } from './markdown.server';

// The blog page renders the body itself (it is cached with the page): routes reach it here.
export { BodyUnrenderable, closeMarkdownPool, renderMarkdown } from './markdown.server';
import type { ViewCounter } from './view-counter.server';
import {
  type CreateBlogInput,
  FEATURED_BLOGS_LIMIT,
  type ListBlogsQuery,
  type PageQuery,
  type PreviewInput,
  RECENT_BLOGS_LIMIT,
  searchTerms,
  type UpdateBlogInput,
} from './blogs.schema';

const findVisible = findVisibleBlog;

async function present(ctx: ServiceContext, rows: (BlogRow & { snippet?: string })[]): Promise<BlogJson[]> {
  const liked = ctx.user ? await repo.likedAmong(ctx.db, ctx.user.id, rows.map((r) => r.id)) : new Set<string>();
  return rows.map((row) => presentBlog(row, ctx.user, liked.has(row.id)));
}

/** The writer's choice as stored: `auto` is no choice (null), and the computed point shows. */
const storedFocus = (choice: PhotoFocusChoice) => (choice === PHOTO_FOCUS_AUTO ? null : choice);

/** The computed focal point of a photo our pipeline stored; null for any other picture (decision 040). */
async function photoPoint(ctx: ServiceContext, photo: string): Promise<{ photo_focus_x: number | null; photo_focus_y: number | null }> {
  const point = await imageFocus(ctx, photo);
  return { photo_focus_x: point?.x ?? null, photo_focus_y: point?.y ?? null };
}

/**
 * Runs `save` with the photo made ours (`adoptPhoto`, decision 050): a photo fetched from an
 * address for this save is removed again when the save fails, so a refused blog leaves nothing.
 */
async function withOwnPhoto<T>(ctx: ServiceContext, photo: string, save: (photo: string) => Promise<T>): Promise<T> {
  const adopted = await adoptPhoto(ctx, photo);
  try {
    return await save(adopted.url);
  } catch (error) {
    if (adopted.stored) await discardImage(ctx, adopted.url);
    throw error;
  }
}

/**
 * A body as its page will show it, rendered when it is written (docs/decisions/047): a body that
 * cannot be rendered within the bound is refused with a clear message and nothing is stored; the
 * rendered HTML is what the spam hold counts links in, and it is kept for the page's first reader.
 */
async function holdOfWritten(ctx: ServiceContext, userId: string, blog: { title: string; short_description: string; long_description: string; details?: string | null }) {
  const heldUntil = await holdEnd(ctx, userId);
  const html = await renderMarkdown(blog.long_description, { nofollow: heldUntil !== null, imageBases: ctx.imageBases });
  return holdOf(ctx, heldUntil, [blog.title, blog.short_description, blog.details], html);
}

/**
 * A body as its readers would see it, quoted where links are never followed (the moderation
 * queue): rendered and sanitised by the site's own renderer; null when it cannot be rendered in
 * time, so the caller shows the text as written.
 */
export async function renderQuotedBody(ctx: ServiceContext, markdown: string): Promise<string | null> {
  try {
    return await renderMarkdown(markdown, { nofollow: true, imageBases: ctx.imageBases });
  } catch (error) {
    if (error instanceof BodyUnrenderable) return null;
    throw error;
  }
}

/** The writing form's Preview tab: the body exactly as the blog page renders it (decision 030), counted per client. */
export async function previewBody(ctx: ServiceContext, input: PreviewInput): Promise<{ html: string }> {
  userOrThrow401(ctx);
  await ctx.limit(RATE_LIMITS.preview);
  try {
    return { html: await renderMarkdown(input.long_description, { imageBases: ctx.imageBases, remember: false }) };
  } catch (error) {
    if (isAppError(error)) throw new AppError(error.code, MESSAGES.previewUnrenderable, error.field);
    throw error;
  }
}

/** The slug a title gives (docs/decisions/069); `like` would be the like button's address. */
export function slugOfTitle(title: string): string {
  const slug = slugify(title).slice(0, 60).replace(/-+$/, '');
  return !slug ? 'post' : slug === 'like' ? 'like-post' : slug;
}

/** `options.id`: the blog takes this id (a scheduled draft's, so publishing it twice cannot make two posts). */
export async function createBlog(ctx: ServiceContext, input: CreateBlogInput, options: { id?: string } = {}): Promise<{ insertedId: string }> {
  const now = ctx.now().toISOString();
  const user = await assertCanWrite(ctx);
  await ctx.limit(RATE_LIMITS.blogWrite);
  return withOwnPhoto(ctx, input.photo, (photo) => insertBlog(ctx, user.id, now, { ...input, photo }, options.id ?? newId()));
}

/** Every save of a post keeps what it then reads, for its history (docs/decisions/070). */
async function keepRevision(db: ServiceContext['db'], row: Pick<BlogRow, 'id' | 'title' | 'category' | 'type' | 'short_description' | 'long_description' | 'details' | 'availability' | 'photo' | 'photo_focus' | 'mail_teaser'>, at: string) {
  await drafts.insertRevision(db, {
    id: newId(),
    blog_id: row.id,
    title: row.title,
    category: row.category,
    type: row.type,
    short_description: row.short_description,
    long_description: row.long_description,
    details: row.details,
    availability: row.availability,
    photo: row.photo,
    photo_focus: row.photo_focus,
    mail_teaser: row.mail_teaser,
    created_at: at,
  });
  await drafts.pruneRevisions(db, row.id, REVISIONS_KEPT);
}

async function insertBlog(ctx: ServiceContext, userId: string, now: string, input: CreateBlogInput, id: string): Promise<{ insertedId: string }> {
  const hold = await holdOfWritten(ctx, userId, input);
  const row = {
    id,
    owner_id: userId,
    title: input.title,
    slug: slugOfTitle(input.title),
    category: input.category,
    type: input.type,
    short_description: input.short_description,
    long_description: input.long_description,
    details: input.details || null,
    availability: input.availability,
    photo: input.photo,
    photo_focus: storedFocus(input.photo_focus ?? PHOTO_FOCUS_AUTO),
    mail_teaser: input.mail === 'teaser' ? 1 : 0,
    ...(await photoPoint(ctx, input.photo)),
    created_at: now,
    updated_at: now,
    held_until: hold.heldUntil,
    pending_since: hold.pending ? now : null,
  };
  const { tags } = input;
  // Published: the event commits with the blog and its tags or not at all. A held or waiting
  // blog is published when it is released (spam-hold.service.server.ts).
  await ctx.db.transaction().execute(async (trx) => {
    await repo.insertBlog(trx, row);
    if (tags?.length) await setBlogTags({ ...ctx, db: trx }, id, tags);
    await keepRevision(trx, row, now);
    if (row.availability === 'Public' && !hold.heldUntil) await emit({ ...ctx, db: trx }, 'blog.published', { blogId: id, ownerId: userId });
  });
  return { insertedId: id };
}

/** The blog an owner is about to edit; anyone else is refused with the product's text. */
export async function getBlogForUpdate(ctx: ServiceContext, id: string): Promise<BlogJson> {
  const user = userOrThrow401(ctx);
  const row = await findVisible(ctx, id);
  if (row.owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyOwnerUpdate);
  const [blog] = await present(ctx, [row]);
  return blog!;
}

export async function updateBlog(ctx: ServiceContext, id: string, input: UpdateBlogInput): Promise<{ modifiedCount: number }> {
  const user = await assertCanWrite(ctx);
  const row = await findVisible(ctx, id);
  if (row.owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyOwnerUpdate);
  await ctx.limit(RATE_LIMITS.blogWrite);
  if (input.photo === undefined) return changeBlog(ctx, user.id, row, input);
  return withOwnPhoto(ctx, input.photo, (photo) => changeBlog(ctx, user.id, row, { ...input, photo }));
}

async function changeBlog(ctx: ServiceContext, userId: string, row: BlogRow, input: UpdateBlogInput): Promise<{ modifiedCount: number }> {
  const { id } = row;
  const { mail, tags, ...fields } = input;
  const patch: Record<string, string | null> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (patch.details === '') patch.details = null;
  // A new title gives a new slug; the old address answers 301 to it (docs/decisions/069).
  if (patch.title !== undefined) patch.slug = slugOfTitle(patch.title!);
  if (input.photo_focus) patch.photo_focus = storedFocus(input.photo_focus);
  const change: Record<string, string | number | null> = { ...patch, ...(mail ? { mail_teaser: mail === 'teaser' ? 1 : 0 } : {}), updated_at: ctx.now().toISOString() };
  // A new photo brings its own computed point; the writer's choice stays until they change it.
  if (input.photo !== undefined && input.photo !== row.photo) Object.assign(change, await photoPoint(ctx, input.photo));
  const publishedAt = String(change.updated_at);
  const edited = { ...row, ...patch };
  const hold = await holdOfWritten(ctx, userId, edited);
  // Many links added while held: it waits (again) for a moderator (docs/decisions/029).
  if (hold.pending && !row.pending_since) change.pending_since = publishedAt;
  const waits = row.held_until !== null || (change.pending_since ?? row.pending_since) !== null;
  const ids = { blogId: id, ownerId: row.owner_id };
  return ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    // A post written before revisions were kept gets its earlier text as its first version.
    if ((await drafts.countRevisions(trx, id)) === 0) await keepRevision(trx, row, row.created_at);
    const modifiedCount = await repo.updateBlog(trx, id, change);
    const saved = await repo.findBlog(trx, id);
    if (saved) await keepRevision(trx, saved, publishedAt);
    if (tags !== undefined) await setBlogTags(tx, id, tags);
    await emit(tx, 'blog.updated', ids);
    // A Hidden draft made Public is published now (subscribers hear of a blog once, however
    // often it is hidden and shown again).
    if (row.availability === 'Hidden' && patch.availability === 'Public' && !waits) await emit(tx, 'blog.published', ids);
    if (row.availability === 'Public' && patch.availability === 'Hidden') await emit(tx, 'blog.withdrawn', { ...ids, how: 'hidden' });
    return { modifiedCount };
  });
}

/** Comments, likes and wishlist rows go with the blog (ON DELETE CASCADE). */
export async function deleteBlog(ctx: ServiceContext, id: string): Promise<{ deletedCount: number }> {
  const user = await assertCanWrite(ctx);
  const row = await findVisible(ctx, id);
  if (row.owner_id !== user.id) throw new AppError('forbidden', MESSAGES.forbidden);
  return ctx.db.transaction().execute(async (trx) => {
    const deletedCount = await repo.deleteBlog(trx, id);
    if (deletedCount > 0) await emit({ ...ctx, db: trx }, 'blog.withdrawn', { blogId: id, ownerId: row.owner_id, how: 'deleted' });
    return { deletedCount };
  });
}

/** The blog with its newest comments. Throws not_found for unknown ids and others' Hidden blogs. */
export async function getBlog(ctx: ServiceContext, id: string): Promise<BlogJson> {
  return (await getBlogWithAuthor(ctx, id)).blog;
}

/**
 * The blog page: the blog and its writer's id, for the byline's link to the author page; `held`:
 * its writer's spam hold is on (noindex, nofollow links: docs/decisions/029).
 */
export async function getBlogWithAuthor(ctx: ServiceContext, id: string): Promise<{ blog: BlogJson; authorId: string; authorPhoto: string | null; held: boolean }> {
  const row = await findVisible(ctx, id);
  const [comments, liked, authorPhoto] = await Promise.all([
    listBlogComments(ctx, row),
    ctx.user ? repo.likedAmong(ctx.db, ctx.user.id, [id]) : Promise.resolve(new Set<string>()),
    repo.findAuthorPhoto(ctx.db, row.owner_id),
  ]);
  return { blog: presentBlog(row, ctx.user, liked.has(id), comments), authorId: row.owner_id, authorPhoto, held: row.held_until !== null };
}

/** How many of the writer's newest other posts the end of a post offers. */
export const MORE_FROM_WRITER = 3;

/** A post as its writer's other posts show it: no counts, which would be stale on a kept page. */
export type PostEndCard = Omit<BlogCardJson, 'likes' | 'likedBy' | 'snippet'>;

export interface PostEnd {
  /** The writer's post written just before this one, and the one just after. */
  previous: PostEndCard | null;
  next: PostEndCard | null;
  /** The writer's newest other posts, apart from those two. */
  more: PostEndCard[];
}

/**
 * The end of a post (docs/decisions/061): the writer's neighbouring posts by date and her newest
 * others. Only what everyone may see, so the part is the same for every reader and a kept page
 * stays right: each blog's revision moves when one of its writer's other posts comes, goes or
 * changes what is shown of it (a trigger, like the rest of freshness).
 */
export async function getPostEnd(ctx: ServiceContext, post: { id: string; ownerId: string; createdAt: string }): Promise<PostEnd> {
  const { previous, next, latest } = await repo.findPostNeighbours(ctx.db, post, MORE_FROM_WRITER + 2);
  const card = (row: BlogRow): PostEndCard => {
    const { likes: _likes, likedBy: _likedBy, snippet: _snippet, ...shown } = toCard(presentBlog(row, null, false));
    return shown;
  };
  const shown = new Set([previous?.id, next?.id]);
  return {
    previous: previous ? card(previous) : null,
    next: next ? card(next) : null,
    more: latest.filter((row) => !shown.has(row.id)).slice(0, MORE_FROM_WRITER).map(card),
  };
}

/** How many blogs an author page lists: a writer's newest (there is no pager yet). */
export const AUTHOR_BLOGS_LIMIT = 50;

/**
 * A writer's blogs, newest first: the Public ones for everyone; the writer also sees their
 * Hidden ones (the same visibility rule as everywhere: a Hidden blog is its writer's alone).
 */
export async function listAuthorBlogs(ctx: ServiceContext, authorId: string, options: { indexable?: boolean } = {}): Promise<BlogJson[]> {
  return present(ctx, await repo.listBlogsByOwner(ctx.db, authorId, ctx.user?.id === authorId, AUTHOR_BLOGS_LIMIT, options.indexable));
}

/** The newest posts of the writers the signed-in reader follows (their /following). */
export async function listFollowedWritersBlogs(ctx: ServiceContext, limit: number): Promise<BlogJson[]> {
  const user = userOrThrow401(ctx);
  return present(ctx, await repo.listBlogsOfFollowedWriters(ctx.db, user.id, limit));
}

/**
 * All blogs the viewer may see (Public, plus the viewer's own Hidden ones), newest first; with
 * `q`, only those matching its words, best match first, each with a highlighted `snippet`.
 */
export async function listBlogs(
  ctx: ServiceContext,
  query: PageQuery & Partial<Pick<ListBlogsQuery, 'q' | 'search'>> & { indexable?: boolean; tag?: string },
): Promise<{ blogs: BlogJson[]; total: number }> {
  const filter = { viewerId: ctx.user?.id ?? null, category: query.search, indexable: query.indexable, tag: query.tag };
  const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
  const terms = searchTerms(query.q);
  if (terms.length > 0) {
    const { rows, total } = await repo.searchBlogs(ctx.db, ctx.dialect, filter, terms, page);
    return { blogs: await present(ctx, rows), total };
  }
  const [rows, total] = await Promise.all([repo.listBlogs(ctx.db, filter, page), repo.countBlogs(ctx.db, filter)]);
  return { blogs: await present(ctx, rows), total };
}

/**
 * Every Public blog's address and last edit, for the sitemap: public by nature, so never a
 * Hidden blog, whoever asks, nor a held one (decision 029). Oldest first, `offset`/`limit` over `total`.
 */
export async function listPublicBlogRefs(ctx: ServiceContext, page: { offset: number; limit: number }): Promise<{ refs: { id: string; slug: string; updatedAt: string }[]; total: number }> {
  const [rows, total] = await Promise.all([
    page.limit > 0 ? repo.listPublicBlogRefs(ctx.db, page) : Promise.resolve([]),
    repo.countBlogs(ctx.db, { viewerId: null, indexable: true }),
  ]);
  return { refs: rows.map((r) => ({ id: r.id, slug: r.slug, updatedAt: r.updated_at })), total };
}

/**
 * The 6 newest Public blogs (docs/product.md#recent-and-featured). Recent and featured are showcases of
 * public blogs for everyone, so an owner's Hidden drafts are not shown there, not even to them.
 */
/** How many blogs everyone may see, and how many writers wrote them (the home page's figures). */
export async function countPublicBlogsAndWriters(ctx: ServiceContext): Promise<{ blogs: number; writers: number }> {
  const [blogs, writers] = await Promise.all([repo.countBlogs(ctx.db, { viewerId: null }), repo.countPublicWriters(ctx.db)]);
  return { blogs, writers };
}

export async function listRecentBlogs(ctx: ServiceContext): Promise<BlogJson[]> {
  return present(ctx, await repo.listPublicBlogs(ctx.db, 'recent', RECENT_BLOGS_LIMIT));
}

/** The 10 Public blogs with the most likes; ties by views, then newest (docs/product.md#recent-and-featured). */
export async function listFeaturedBlogs(ctx: ServiceContext): Promise<BlogJson[]> {
  return present(ctx, await repo.listPublicBlogs(ctx.db, 'featured', FEATURED_BLOGS_LIMIT));
}

/**
 * One view: the browser sends it once ('viewedBlogs'), and the server counts it at most once
 * per visitor and blog a day (docs/product.md#views): a signed-in visitor is their account, anyone else
 * their address and user agent. Counted views are written in batches (ViewCounter); a repeat
 * answers modifiedCount 0.
 */
export async function recordView(
  ctx: ServiceContext,
  id: string,
  client: { address: string; userAgent: string },
  views: ViewCounter,
): Promise<{ modifiedCount: number }> {
  await ctx.limit(RATE_LIMITS.view);
  await findVisible(ctx, id);
  const visitor = ctx.user ? `u:${ctx.user.id}` : views.anonymousVisitor(client.address, client.userAgent);
  return { modifiedCount: (await views.count(visitor, id)) ? 1 : 0 };
}

/** One like per user and blog: the second answers modifiedCount 0 (docs/product.md#likes). */
export async function likeBlog(ctx: ServiceContext, id: string): Promise<{ modifiedCount: number; likes: number }> {
  return setLiked(ctx, id, true);
}

export async function unlikeBlog(ctx: ServiceContext, id: string): Promise<{ modifiedCount: number; likes: number }> {
  return setLiked(ctx, id, false);
}

/** Adds or removes the caller's like and moves the count with it, in one transaction. */
async function setLiked(ctx: ServiceContext, id: string, liked: boolean): Promise<{ modifiedCount: number; likes: number }> {
  const user = await assertCanWrite(ctx);
  const blog = await findVisible(ctx, id);
  return ctx.db.transaction().execute(async (trx) => {
    const changed = liked
      ? await repo.insertLike(trx, { blog_id: id, user_id: user.id, user_email: user.email, created_at: ctx.now().toISOString() })
      : await repo.deleteLike(trx, id, user.id);
    const likes = changed ? await repo.addToLikes(trx, id, liked ? 1 : -1) : await repo.likesOf(trx, id);
    if (changed && liked) await emit({ ...ctx, db: trx }, 'blog.liked', { blogId: id, ownerId: blog.owner_id, userId: user.id });
    return { modifiedCount: changed, likes };
  });
}

export interface LikedBlogJson {
  blogId: string;
  likes: number;
  likedBy: string[];
}

/** GET /blogs/liked/{email} (docs/product.md#the-api): the caller's own likes only. */
export async function listLikedBlogs(ctx: ServiceContext, email: string, page: PageQuery): Promise<{ items: LikedBlogJson[]; total: number }> {
  const user = userOrThrow401(ctx);
  if (email.toLowerCase() !== user.email.toLowerCase()) throw new AppError('forbidden', MESSAGES.forbidden);
  const [rows, total] = await Promise.all([
    repo.listLikedBlogs(ctx.db, user.id, { limit: page.limit, offset: (page.page - 1) * page.limit }),
    repo.countLikedBlogs(ctx.db, user.id),
  ]);
  return { items: rows.map((r) => ({ blogId: r.blog_id, likes: r.likes, likedBy: [user.email] })), total };
}

export { addComment, deleteComment, editComment } from './comments.service.server';

/** What the blogs feature does when other features' things change. */
export const BLOG_SUBSCRIPTIONS = [
  // A deleted account's likes and comments went by cascade, without moving the counts shown on
  // the other writers' blogs: those are counted again from the rows (docs/decisions/067).
  onEvent('account.deleted', 'blogs-recount', async (ctx, event) => {
    await repo.recountLikesAndComments(ctx.db, event.data.blogIds);
  }),
];
