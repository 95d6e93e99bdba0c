import type { Selectable } from 'kysely';
import type { BlogsTable, CommentsTable } from '~/db/schema';
import { PHOTO_FOCUS_AUTO, photoPosition } from '~/features/images/photo-focus';
import { MESSAGES } from '~/lib/texts/messages';
import type { z } from 'zod';
import type { BlogResponse, CommentResponse } from './blog-json.schema';
import type { BlogCategory, BlogType } from './blogs.schema';
import { readingTime } from './reading-time';

/**
 * A blog row as the repo reads it (the blogs table's columns but the bookkeeping ones), with its
 * author's name as shown now, read through owner_id (docs/decisions/022).
 */
export type BlogRow = Omit<Selectable<BlogsTable>, 'updated_at' | 'comments_count' | 'revision'> & { author_name: string | null; show_views: number | null };

/** The post's tag names, from the text kept beside its tags (docs/decisions/069). */
export const tagsOfRow = (row: Pick<BlogRow, 'tags_text'>): string[] => (row.tags_text ? row.tags_text.split(' ') : []);

/** A comment with its author's name and photo as shown now, read through user_id (null: a remote actor wrote it) or its remote actor. */
export type CommentRow = Pick<
  Selectable<CommentsTable>,
  'id' | 'user_id' | 'parent_id' | 'root_id' | 'depth' | 'likes' | 'pinned_at' | 'hidden_at' | 'deleted_at' | 'comment_text' | 'commented_at' | 'removed_at' | 'removed_reason' | 'edited_at' | 'pending_since'
> & { user_name: string | null; user_photo: string | null; remote_handle: string | null; remote_profile_url: string | null };

/** Who is looking: their own email is the only one they are ever shown (docs/product.md#emails-of-others). */
export interface Viewer {
  id: string;
  email: string;
}

/**
 * A comment and a blog as the API and the pages get them: the `z.infer` of the API's response
 * schemas (blog-json.schema.ts), the one statement of the contract. Type imports only, so the
 * pages that show blogs ship no zod for it.
 */
export type CommentJson = z.infer<typeof CommentResponse>;
export type BlogJson = z.infer<typeof BlogResponse>;

const shownName = (name: string | null) => name || MESSAGES.defaultDisplayName;

/** What the viewer needs to know about a comment beyond its row: the blog's writer, and their likes. */
export interface CommentSight {
  writerId: string;
  liked: ReadonlySet<string>;
}

export function presentComment(row: CommentRow, viewer: Viewer | null, sight: CommentSight): CommentJson {
  const thread = { parentId: row.parent_id, depth: row.depth, likes: row.likes, pinned: row.pinned_at !== null };
  // A deleted comment keeps its place in the thread and nothing else (docs/decisions/060).
  if (row.deleted_at) {
    return { _id: row.id, userName: MESSAGES.deletedComment, userPhoto: null, isMine: false, isAuthor: false, commentText: MESSAGES.deletedComment, commentedAt: row.commented_at, edited: false, ...thread, likedByMe: false, deleted: true };
  }
  const isMine = viewer !== null && row.user_id === viewer.id;
  return {
    _id: row.id,
    userName: shownName(row.user_name),
    userPhoto: row.user_photo,
    ...(isMine ? { userEmail: viewer.email } : {}),
    isMine,
    isAuthor: row.user_id === sight.writerId,
    ...(row.remote_handle ? { remote: { handle: row.remote_handle, profileUrl: row.remote_profile_url } } : {}),
    commentText: row.comment_text,
    commentedAt: row.commented_at,
    edited: row.edited_at !== null,
    ...thread,
    likedByMe: sight.liked.has(row.id),
    deleted: false,
    // Only its author and the writer are shown a hidden comment at all (comment-threads.ts).
    ...(row.hidden_at ? { hidden: true as const } : {}),
    ...(isMine && row.removed_at ? { removed: { reason: row.removed_reason ?? '' } } : {}),
    ...(isMine && row.pending_since ? { pending: true as const } : {}),
  };
}

export function presentBlog(
  row: BlogRow & { snippet?: string },
  viewer: Viewer | null,
  likedByViewer: boolean,
  comments?: CommentJson[],
): BlogJson {
  const isOwner = viewer !== null && row.owner_id === viewer.id;
  return {
    _id: row.id,
    title: row.title,
    ...(isOwner ? { email: viewer.email } : {}),
    isOwner,
    name: shownName(row.author_name),
    // The database's CHECKs hold these to the choice lists (docs/product.md#choice-lists) (the column types say only string).
    category: row.category as BlogCategory,
    type: row.type as BlogType,
    short_description: row.short_description,
    long_description: row.long_description,
    details: row.details,
    availability: row.availability,
    photo: row.photo,
    photo_focus: row.photo_focus ?? PHOTO_FOCUS_AUTO,
    photo_position: photoPosition(row.photo_focus, row.photo_focus_x, row.photo_focus_y),
    createdAt: row.created_at,
    likes: row.likes,
    likedBy: likedByViewer && viewer ? [viewer.email] : [],
    // Its writer may keep her view counts to herself (docs/decisions/069): she still sees them.
    views: isOwner || row.show_views === null || Number(row.show_views) === 1 ? row.views : null,
    slug: row.slug,
    tags: tagsOfRow(row),
    ...(comments ? { comments } : {}),
    ...(isOwner && row.removed_at ? { removed: { reason: row.removed_reason ?? '' } } : {}),
    ...(isOwner && row.pending_since ? { pending: true as const } : {}),
    ...(isOwner ? { mail: Number(row.mail_teaser) === 1 ? ('teaser' as const) : ('post' as const) } : {}),
    ...(row.snippet === undefined ? {} : { snippet: snippetHtml(row.snippet) }),
  };
}

/** likedBy carries nobody's email but the viewer's: non-empty means the viewer liked it. */
export const likedByViewer = (blog: Pick<BlogJson, 'likedBy'>): boolean => blog.likedBy.length > 0;

/**
 * The markers the database puts around matched words in a search excerpt (FTS5 snippet(),
 * PostgreSQL ts_headline). Control characters, so ordinary text does not contain them; a writer
 * who types them anyway only moves a highlight in their own excerpt (snippetHtml stays safe).
 */
export const MARK_OPEN = '\u0002';
export const MARK_CLOSE = '\u0003';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const MARKDOWN_NOISE = /^[ \t]{0,3}(?:#{1,6}|>|[-*+]|\d+\.)[ \t]+|\*\*|__|`+/gm;

/**
 * A marked excerpt as HTML: every character of the writer's text escaped, Markdown markers and
 * line breaks flattened, and only our own balanced <mark> elements (docs/decisions/012).
 */
export function snippetHtml(marked: string): string {
  let html = '';
  let open = false;
  for (const char of marked.replace(MARKDOWN_NOISE, '').replace(/\s+/g, ' ').trim()) {
    if (char === MARK_OPEN || char === MARK_CLOSE) {
      if (open !== (char === MARK_OPEN)) html += open ? '</mark>' : '<mark>';
      open = char === MARK_OPEN;
    } else {
      html += HTML_ESCAPES[char] ?? char;
    }
  }
  return open ? `${html}</mark>` : html;
}

export interface SnippetPart {
  text: string;
  mark: boolean;
}

/** snippetHtml's output back as text runs, so React renders it without innerHTML. */
export function snippetParts(html: string): SnippetPart[] {
  const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
  return html
    .split(/(<mark>.*?<\/mark>)/)
    .filter(Boolean)
    .map((part) => (part.startsWith('<mark>') ? { text: unescape(part.slice(6, -7)), mark: true } : { text: unescape(part), mark: false }));
}

/**
 * What a card needs: the list pages ship this, not the long description, whose length only
 * shows as the reading time ("4 min read").
 */
export type BlogCardJson = Pick<BlogJson, '_id' | 'slug' | 'title' | 'name' | 'category' | 'tags' | 'short_description' | 'photo' | 'photo_position' | 'createdAt' | 'likes' | 'likedBy' | 'availability' | 'snippet'> & {
  readingTime: string;
};

export function toCard(blog: BlogJson): BlogCardJson {
  const { _id, slug, title, name, category, tags, short_description, photo, photo_position, createdAt, likes, likedBy, availability, snippet } = blog;
  return {
    _id,
    slug,
    title,
    name,
    category,
    tags,
    short_description,
    photo,
    photo_position,
    createdAt,
    likes,
    likedBy,
    availability,
    readingTime: readingTime(blog.long_description),
    ...(snippet === undefined ? {} : { snippet }),
  };
}
