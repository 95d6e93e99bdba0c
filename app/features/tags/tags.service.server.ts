import { assertCanWrite } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { newId } from '~/lib/core/ids.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { MESSAGES } from '~/lib/texts/messages';
import * as repo from './tags.repo.server';
import { TAG_MAX_LENGTH, TAG_SUGGESTIONS, TAGS_PER_POST, type TagJson, TagKeySchema, TagsSchema, tagKey, tidyTag } from './tags.schema';

/**
 * Sets a post's tags (docs/decisions/069): its writer only; names tidied and checked as the
 * forms and the API do (a bad one is a 400 and nothing changes); new tags are made, the post's
 * list replaced in its order, and its tags_text (cards, search) follows in the same transaction.
 * Answers the names as kept. Runs inside the caller's transaction when it has one.
 */
export async function setBlogTags(ctx: ServiceContext, blogId: string, names: string[]): Promise<string[]> {
  const parsed = TagsSchema.safeParse(names);
  if (!parsed.success) throw new AppError('bad_request', parsed.error.issues[0]?.message ?? MESSAGES.tagBadShape(TAG_MAX_LENGTH), 'tags');
  const tags = parsed.data;
  const user = await assertCanWrite(ctx);
  const owner = await repo.blogOwner(ctx.db, blogId);
  if (owner === undefined) throw new AppError('not_found', MESSAGES.blogNotFound);
  if (owner !== user.id) throw new AppError('forbidden', MESSAGES.onlyOwnerUpdate);
  return saveTags(ctx, blogId, tags);
}

/** Makes the tags that are new and replaces the post's list, in the caller's transaction when it has one. */
async function saveTags(ctx: ServiceContext, blogId: string, tags: string[]): Promise<string[]> {
  const save = async (db: ServiceContext['db']) => {
    const keys = tags.map(tagKey);
    const known = new Set((await repo.findTags(db, keys)).map((tag) => tag.key));
    const now = ctx.now().toISOString();
    await repo.insertTags(db, tags.filter((name) => !known.has(tagKey(name))).map((name) => ({ id: newId(), key: tagKey(name), name, created_at: now })));
    const byKey = new Map((await repo.findTags(db, keys)).map((tag) => [tag.key, tag]));
    const kept = keys.map((key) => byKey.get(key)!);
    await repo.replaceBlogTags(db, blogId, kept);
    return kept.map((tag) => tag.name);
  };
  return ctx.db.isTransaction ? save(ctx.db) : ctx.db.transaction().execute(save);
}

/**
 * An imported post's tags (docs/decisions/072): the importer has already decided the post may be
 * written for its owner, so no standing or owner check here. Each source tag is tidied as the
 * form tidies it; one that still does not fit our shape is left out (and named in what this
 * answers) rather than refusing the post; at most the first TAGS_PER_POST are kept.
 */
export async function adoptImportedTags(ctx: ServiceContext, blogId: string, names: string[]): Promise<{ kept: string[]; left: string[] }> {
  const tidy = [...new Map(names.map(tidyTag).filter(Boolean).map((name) => [tagKey(name), name])).values()];
  const fits = tidy.filter((name) => TagsSchema.safeParse([name]).success);
  const kept = fits.slice(0, TAGS_PER_POST);
  const left = [...tidy.filter((name) => !fits.includes(name)), ...fits.slice(TAGS_PER_POST)];
  if (kept.length > 0) await saveTags(ctx, blogId, kept);
  return { kept, left };
}

/**
 * Each blog's tag names, in its writer's order (an id with none maps to []). No visibility rule:
 * the caller has already decided the blogs may be shown.
 */
export async function tagsOfBlogs(ctx: ServiceContext, blogIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(blogIds.map((id) => [id, []]));
  for (const row of await repo.tagNamesOf(ctx.db, [...new Set(blogIds)])) out.get(row.blog_id)?.push(row.name);
  return out;
}

/** The tags field's suggestions: tags on public posts beginning with `prefix`, most used first. */
export async function suggestTags(ctx: ServiceContext, prefix: string): Promise<TagJson[]> {
  return repo.usedTags(ctx.db, { prefix: tagKey(prefix), limit: TAG_SUGGESTIONS });
}

/** A tag by the address part of its page; not_found for a malformed or unknown one. */
export async function getTag(ctx: ServiceContext, key: string): Promise<{ key: string; name: string }> {
  const parsed = TagKeySchema.safeParse(key);
  const tag = parsed.success ? await repo.findTag(ctx.db, parsed.data) : undefined;
  if (!tag) throw new AppError('not_found', MESSAGES.tagNotFound);
  return tag;
}

/** How many tags the sitemap lists at most: the most used. */
export const SITEMAP_TAGS = 5_000;

/** Tags of posts that may be indexed, most used first: the sitemap's tag pages. */
export async function listIndexableTags(ctx: ServiceContext): Promise<TagJson[]> {
  return repo.usedTags(ctx.db, { limit: SITEMAP_TAGS, indexable: true });
}
