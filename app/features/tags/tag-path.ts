// A tag's address, spelling and limits, without zod, so the pages that show tags load none (decision 038).

/** At most this many tags on a post, each at most this long (docs/decisions/069). */
export const TAGS_PER_POST = 10;
export const TAG_MAX_LENGTH = 32;
/** How many suggestions the tags field is offered as the writer types. */
export const TAG_SUGGESTIONS = 8;

/**
 * A tag as written, tidied: spaces around it and a leading `#` dropped, inner spaces and
 * underscores made hyphens ("Night sky" → "Night-sky"). Empty when nothing is left.
 */
export function tidyTag(raw: string): string {
  return raw
    .normalize('NFC')
    .trim()
    .replace(/^#+/, '')
    .replace(/[\s_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Its key: the lower-case form, one per tag whatever its case (the tag page's address). */
export const tagKey = (name: string) => name.toLowerCase();

/** Where a tag's page is (docs/decisions/069); its feeds are beside it. */
export const tagPath = (name: string) => `/tags/${encodeURIComponent(tagKey(name))}`;
export const tagFeedPath = (name: string, format: 'atom' | 'rss') => `${tagPath(name)}/${format === 'atom' ? 'feed.xml' : 'rss.xml'}`;
