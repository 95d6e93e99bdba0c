import { z } from 'zod';
import { REMOTE_FOLLOWING_TEXTS } from '~/lib/texts/remote-following';

/** A reader follows an account elsewhere by its handle (`@name@host`) or its profile address. */
export const FollowRemoteSchema = z.object({
  account: z
    .string()
    .trim()
    .min(3, REMOTE_FOLLOWING_TEXTS.accountTooShort)
    .max(300)
    .refine((v) => /^@?[^@\s/]+@[^@\s/]+$/.test(v) || (/^https?:\/\//i.test(v) && URL.canParse(v)), REMOTE_FOLLOWING_TEXTS.accountTooShort),
});
export type FollowRemoteInput = z.infer<typeof FollowRemoteSchema>;

export const UnfollowRemoteSchema = z.object({ followId: z.string().trim().min(1).max(200) });

export const REMOTE_REPLY_MAX = 2000;

/** A reader answers a post from elsewhere shown on /following. */
export const ReplyRemoteSchema = z.object({
  postId: z.string().trim().min(1).max(200),
  text: z.string().trim().min(1, REMOTE_FOLLOWING_TEXTS.replyEmpty).max(REMOTE_REPLY_MAX),
});
export type ReplyRemoteInput = z.infer<typeof ReplyRemoteSchema>;

/** What /following keeps of followed accounts' posts: the newest this many per account, for this many days. */
export const REMOTE_POSTS_PER_ACCOUNT = 50;
export const REMOTE_POSTS_KEEP_DAYS = 60;
/** How many posts /following shows, local and remote together. */
export const FOLLOWING_FEED_LIMIT = 30;

/** "Follow from your server" on a writer's page: the reader's server (or handle there), and the account to follow. */
export const FollowFromServerSchema = z.object({
  server: z.string().trim().min(3, REMOTE_FOLLOWING_TEXTS.serverTooShort).max(300),
  account: z.string().trim().regex(/^@?[^@\s/]+@[^@\s/]+$/),
});
export type FollowFromServerInput = z.infer<typeof FollowFromServerSchema>;

/** What another server sends a reader here with: the account they want to follow (`acct:name@host` or its address). */
export const InteractionSchema = z.object({ uri: z.string().trim().min(3).max(500) });

/** The account an interaction names, as the follow form takes it; null when it names none. */
export function accountOfInteraction(uri: string): string | null {
  const acct = /^(?:acct:)?@?([^@\s/:]+)@([^@\s/]+)$/i.exec(uri);
  if (acct) return `@${acct[1]}@${acct[2]}`;
  return /^https?:\/\//i.test(uri) && URL.canParse(uri) ? uri : null;
}
