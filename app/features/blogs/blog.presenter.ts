import type { Selectable } from 'kysely';
import type { BlogsTable } from '~/db/schema';
import type { BlogAvailability } from './blog.schema';

/** A blog row as the repo reads it (the blogs table's columns but the bookkeeping ones). */
export type BlogRow = Omit<Selectable<BlogsTable>, 'updated_at' | 'comments_count'>;

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

export function presentBlog(row: BlogRow, viewer: { likedByViewer: boolean; email: string | null }, comments?: CommentRow[]): BlogJson {
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
  };
}

/** What a card needs: the list pages ship this, not the long description. */
export type BlogCardJson = Pick<BlogJson, '_id' | 'title' | 'name' | 'category' | 'short_description' | 'photo' | 'createdAt' | 'likes' | 'likedBy' | 'availability'>;

export function toCard(blog: BlogJson): BlogCardJson {
  const { _id, title, name, category, short_description, photo, createdAt, likes, likedBy, availability } = blog;
  return { _id, title, name, category, short_description, photo, createdAt, likes, likedBy, availability };
}
