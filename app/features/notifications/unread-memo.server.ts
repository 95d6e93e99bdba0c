import { LRUCache } from 'lru-cache';

/**
 * The bell's unread count per member, kept in memory so a signed-in page costs no query for it
 * (docs/decisions/062). A member's count is forgotten the moment this process makes or reads one
 * of their notifications; another instance's change shows within `UNREAD_MEMO_MS` at most.
 */
export const UNREAD_MEMO_MS = 15_000;

const kept = new LRUCache<string, number>({ max: 50_000, ttl: UNREAD_MEMO_MS });

export function keptUnread(userId: string): number | undefined {
  return kept.get(userId);
}

export function keepUnread(userId: string, count: number): void {
  kept.set(userId, count);
}

export function forgetUnread(userId: string): void {
  kept.delete(userId);
}
