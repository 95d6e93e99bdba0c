// Tags, a post's address and the writer's view counts (docs/decisions/069).
export const tagsLabel = 'Tags';
export const tagsHint = (most: number) => `Optional. Up to ${most}, separated by commas: “night sky, film-photography”.`;
export const tagBadShape = (longest: number) => `A tag is letters and digits, in words joined by hyphens, at most ${longest} characters.`;
export const tagsTooMany = (most: number) => `At most ${most} tags.`;
export const tagSuggestionsLabel = 'Suggested tags';
export const tagAdd = (name: string) => `Add tag ${name}`;
export const tagNotFound = 'No post carries this tag.';
export const tagHeading = (name: string) => `#${name}`;
export const tagDescription = (name: string, site: string) => `Public posts tagged ${name} on ${site}, newest first.`;
export const tagCount = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'post' : 'posts'}`;
export const tagFeedLink = 'Follow this tag’s feed';
export const postTags = 'Tags';
export const showViewsLabel = 'Show how many times my posts were read';
export const showViewsHint = 'When off, readers no longer see “N views” under your posts; you still see your numbers on your page and in your stats.';
