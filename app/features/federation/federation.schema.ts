import { z } from 'zod';

/** A writer removes one of their followers on another server (their profile's list). */
export const RemoveFollowerSchema = z.object({ followerId: z.string().trim().min(1).max(200) });
