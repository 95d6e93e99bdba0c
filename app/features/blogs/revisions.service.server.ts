import { diffWordsWithSpace } from 'diff';
import { AppError } from '~/lib/core/errors';
import { userOrThrow401, type ServiceContext } from '~/lib/core/service-context';
import { MESSAGES } from '~/lib/texts/messages';
import { blogPathOf } from './blog-path';
import { findVisibleBlog } from './blog-visibility.server';
import { REVISIONS_KEPT } from './blogs.constants';
import { UpdateBlogSchema } from './blogs.schema';
import { updateBlog } from './blogs.service.server';
import * as repo from './drafts.repo.server';
import type { RevisionRow } from './drafts.repo.server';


export interface RevisionJson {
  id: string;
  createdAt: string;
  title: string;
  availability: string;
  /** Characters of the body, for telling versions apart at a glance. */
  length: number;
}

/** One part of a comparison: text both versions share, or that only the older (`removed`) or newer (`added`) has. */
export interface DiffPart {
  value: string;
  added?: boolean;
  removed?: boolean;
}

export interface RevisionComparison {
  older: RevisionJson;
  newer: RevisionJson;
  fields: { field: 'title' | 'short_description' | 'long_description' | 'details'; parts: DiffPart[]; changed: boolean }[];
  photoChanged: boolean;
}

const presentRevision = (row: RevisionRow): RevisionJson => ({ id: row.id, createdAt: row.created_at, title: row.title, availability: row.availability, length: row.long_description.length });

/** The caller's own post: a history is its writer's alone. */
async function ownPost(ctx: ServiceContext, blogId: string) {
  const user = userOrThrow401(ctx);
  const blog = await findVisibleBlog(ctx, blogId);
  if (blog.owner_id !== user.id) throw new AppError('forbidden', MESSAGES.onlyOwnerUpdate);
  return blog;
}

/** A post's versions, newest first (docs/decisions/070). */
export async function listRevisions(ctx: ServiceContext, blogId: string): Promise<{ title: string; path: string; revisions: RevisionJson[] }> {
  const blog = await ownPost(ctx, blogId);
  return { title: blog.title, path: blogPathOf(blog), revisions: (await repo.listRevisions(ctx.db, blogId, REVISIONS_KEPT)).map(presentRevision) };
}

async function revision(ctx: ServiceContext, blogId: string, id: string): Promise<RevisionRow> {
  const row = await repo.findRevision(ctx.db, blogId, id);
  if (!row) throw new AppError('not_found', MESSAGES.revisionNotFound);
  return row;
}

/** Two versions word by word, the older first whichever order they were asked in. */
export async function compareRevisions(ctx: ServiceContext, blogId: string, a: string, b: string): Promise<RevisionComparison> {
  await ownPost(ctx, blogId);
  const [one, two] = await Promise.all([revision(ctx, blogId, a), revision(ctx, blogId, b)]);
  const [older, newer] = one.created_at <= two.created_at ? [one, two] : [two, one];
  const fields = (['title', 'short_description', 'long_description', 'details'] as const).map((field) => {
    const parts = diffWordsWithSpace(older[field] ?? '', newer[field] ?? '').map(({ value, added, removed }) => ({ value, ...(added ? { added } : {}), ...(removed ? { removed } : {}) }));
    return { field, parts, changed: parts.some((p) => p.added || p.removed) };
  });
  return { older: presentRevision(older), newer: presentRevision(newer), fields, photoChanged: older.photo !== newer.photo };
}

/**
 * The post reads as that version again: a save like any other, so it is itself a new version.
 * Answers where the post now lives: its title, and so its address, may be the restored one's.
 */
export async function restoreRevision(ctx: ServiceContext, blogId: string, id: string): Promise<{ modifiedCount: number; path: string }> {
  await ownPost(ctx, blogId);
  const row = await revision(ctx, blogId, id);
  const { modifiedCount } = await updateBlog(ctx, blogId, UpdateBlogSchema.parse({
    title: row.title,
    category: row.category,
    type: row.type,
    short_description: row.short_description,
    long_description: row.long_description,
    details: row.details ?? '',
    ...(row.photo ? { photo: row.photo } : {}),
    photo_focus: row.photo_focus ?? 'auto',
    mail: row.mail_teaser ? 'teaser' : 'post',
  }));
  return { modifiedCount, path: blogPathOf(await ownPost(ctx, blogId)) };
}
