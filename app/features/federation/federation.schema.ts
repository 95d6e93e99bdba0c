import { z } from 'zod';

/** A writer removes one of their followers on another server (their profile's list). */
export const RemoveFollowerSchema = z.object({ followerId: z.string().trim().min(1).max(200) });

/**
 * A moderator blocks a remote account (`@user@host`, or its address) or a whole server (its host,
 * `social.example`), with the reason the log keeps.
 */
export const RemoteBlockSchema = z.object({
  target: z.string().trim().min(3, 'Give an account (@name@server), its address, or a server').max(300),
  reason: z.string().trim().min(1, 'Say why').max(500),
});
export type RemoteBlockInput = z.infer<typeof RemoteBlockSchema>;

export const RemoteUnblockSchema = z.object({ blockId: z.string().trim().min(1).max(200) });
