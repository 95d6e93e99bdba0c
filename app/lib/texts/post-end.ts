/**
 * The end of a post (docs/decisions/061): share, the writer's other posts, and the way to hear
 * of the writer's next one. Read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const shareHeading = 'Share this post';
export const copyLink = 'Copy link';
export const linkCopied = 'Link copied.';
export const linkNotCopied = 'The link could not be copied: select it in the address bar instead.';
export const shareSheet = 'Share…';
export const previousPost = 'Previous post';
export const nextPost = 'Next post';
export const morePostsBy = (name: string) => `More posts by ${name}`;
export const moreFrom = (name: string) => `More from ${name}`;
export const followPromptSignedIn = (name: string) => `Enjoyed this? Follow ${name} and their new posts come to your inbox.`;
export const followPromptSignedOut = (name: string) => `Enjoyed this? Log in to follow ${name}, or get the site's newsletter.`;
export const logInToFollow = 'Log in to follow';
export const getNewsletter = 'Get the newsletter';
