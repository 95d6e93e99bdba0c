import type { Selectable } from 'kysely';
import type { BlogsTable } from '~/db/schema';
import type { BlogAvailability } from './blog.schema';

/** A blog row as the repo reads it (the blogs table's columns but the bookkeeping ones). */
export type BlogRow = Omit<Selectable<BlogsTable>, 'updated_at' | 'comments_count' | 'revision'>;

export interface CommentRow {
  user_name: string;
  user_photo: string | null;
  user_email: string;
  comment_text: string;
  commented_at: string;
}

export interface CommentJson {
  userName: string;
  userPhoto: string | null;
  userEmail: string;
  commentText: string;
  commentedAt: string;
}

/** Spec §3's Blog, allowlisted. `comments` only on the detail. */
export interface BlogJson {
  _id: string;
  title: string;
  email: string;
  name: string;
  category: string;
  type: string;
  short_description: string;
  long_description: string;
  details: string | null;
  availability: BlogAvailability;
  photo: string | null;
  createdAt: string;
  likes: number;
  /**
   * At most the viewer's own email, when the viewer liked the blog: enough for "liked by me",
   * without publishing every liker's address (docs/decisions/ blogs-likes-and-visibility).
   */
  likedBy: string[];
  views: number;
  comments?: CommentJson[];
  /** Only in search results: an excerpt of the long description as safe HTML (see snippetHtml). */
  snippet?: string;
}

export function presentComment(row: CommentRow): CommentJson {
  return {
    userName: row.user_name,
    userPhoto: row.user_photo,
    userEmail: row.user_email,
    commentText: row.comment_text,
    commentedAt: row.commented_at,
  };
}

export function presentBlog(
  row: BlogRow & { snippet?: string },
  viewer: { likedByViewer: boolean; email: string | null },
  comments?: CommentRow[],
): BlogJson {
  return {
    _id: row.id,
    title: row.title,
    email: row.email,
    name: row.name,
    category: row.category,
    type: row.type,
    short_description: row.short_description,
    long_description: row.long_description,
    details: row.details,
    availability: row.availability,
    photo: row.photo,
    createdAt: row.created_at,
    likes: row.likes,
    likedBy: viewer.likedByViewer && viewer.email ? [viewer.email] : [],
    views: row.views,
    ...(comments ? { comments: comments.map(presentComment) } : {}),
    ...(row.snippet === undefined ? {} : { snippet: snippetHtml(row.snippet) }),
  };
}

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

/** What a card needs: the list pages ship this, not the long description. */
export type BlogCardJson = Pick<BlogJson, '_id' | 'title' | 'name' | 'category' | 'short_description' | 'photo' | 'createdAt' | 'likes' | 'likedBy' | 'availability' | 'snippet'>;

export function toCard(blog: BlogJson): BlogCardJson {
  const { _id, title, name, category, short_description, photo, createdAt, likes, likedBy, availability, snippet } = blog;
  return { _id, title, name, category, short_description, photo, createdAt, likes, likedBy, availability, ...(snippet === undefined ? {} : { snippet }) };
}
