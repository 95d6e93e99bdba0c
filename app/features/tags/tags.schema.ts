import { z } from 'zod';
import { MESSAGES } from '~/lib/texts/messages';
import { TAG_MAX_LENGTH, TAGS_PER_POST, tagKey, tidyTag } from './tag-path';

export { TAG_MAX_LENGTH, TAG_SUGGESTIONS, TAGS_PER_POST, tagFeedPath, tagKey, tagPath, tidyTag } from './tag-path';


/** A tag as stored and shown: letters and digits in words joined by hyphens. */
const TAG_SHAPE = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;

/**
 * A post's tags as a writer sends them: a list (the API) or one comma-separated text (the form,
 * which works without JavaScript). Tidied, the first spelling of a tag kept when it comes twice
 * in any case; a tag of another shape or length, or too many, is refused with a message.
 */
export const TagsSchema = z
  .union([z.string().max(TAGS_PER_POST * (TAG_MAX_LENGTH + 2) * 2, MESSAGES.tagsTooMany(TAGS_PER_POST)), z.array(z.string().max(200, MESSAGES.tagBadShape(TAG_MAX_LENGTH))).max(50, MESSAGES.tagsTooMany(TAGS_PER_POST))])
  .transform((value, check) => {
    const seen = new Set<string>();
    const names: string[] = [];
    for (const raw of typeof value === 'string' ? value.split(',') : value) {
      const name = tidyTag(raw);
      if (!name) continue;
      if (name.length > TAG_MAX_LENGTH || !TAG_SHAPE.test(name)) {
        check.addIssue({ code: 'custom', message: MESSAGES.tagBadShape(TAG_MAX_LENGTH) });
        return z.NEVER;
      }
      if (seen.has(tagKey(name))) continue;
      seen.add(tagKey(name));
      names.push(name);
    }
    if (names.length > TAGS_PER_POST) {
      check.addIssue({ code: 'custom', message: MESSAGES.tagsTooMany(TAGS_PER_POST) });
      return z.NEVER;
    }
    return names;
  })
  .describe(`The post's tags (docs/decisions/069): a list, or one comma-separated text; each letters and digits in words joined by hyphens (spaces become hyphens, a leading # is dropped), at most ${TAG_MAX_LENGTH} characters, at most ${TAGS_PER_POST}; the same tag in another case counts once. Absent on update: unchanged; empty: none`);

/** GET /api/tags: the tags that begin with what the writer typed. */
export const TagSuggestQuerySchema = z.object({
  prefix: z
    .string()
    .max(TAG_MAX_LENGTH + 2, MESSAGES.tagBadShape(TAG_MAX_LENGTH))
    .optional()
    .transform((v) => tidyTag(v ?? ''))
    .describe('The beginning of a tag, in any case; empty: the most used tags'),
});

/** A tag's page address part: its key, checked before any lookup. */
export const TagKeySchema = z
  .string()
  .transform((v) => tagKey(tidyTag(v)))
  .refine((v) => v.length > 0 && v.length <= TAG_MAX_LENGTH && TAG_SHAPE.test(v), MESSAGES.tagBadShape(TAG_MAX_LENGTH));

export const TagResponse = z.strictObject({
  name: z.string().describe('As its first writer spelled it'),
  key: z.string().describe('Its lower-case form: the tag page is /tags/{key}'),
  posts: z.number().int().describe('How many public posts carry it'),
});
export type TagJson = z.infer<typeof TagResponse>;
