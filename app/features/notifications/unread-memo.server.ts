import { LRUCache } from 'lru-cache';

/**
 * The bell's unread count per member, kept in memory so a signed-in page costs no query for it
 * (docs/decisions/062). A member's count is forgotten the moment this process makes or reads one
 * of their notifications; another instance's change shows within `UNREAD_MEMO_MS` at most.
 */
export const UNREAD_MEMO_MS = 15_000;

const kept = new LRUCache<string, number>({ max: 50_000, ttl: UNREAD_MEMO_MS });
/**
 * Moves each time a member's count is forgotten: a count read before a change but kept after it
 * (a page's bell read while the same page marked everything read) would otherwise stay wrong for
 * the memo's whole time.
 */
const changes = new LRUCache<string, number>({ max: 50_000, ttl: 60_000 });

/** The kept count, or undefined with the member's change mark to hand back to keepUnread. */
export function keptUnread(userId: string): { count: number } | { mark: number } {
  const count = kept.get(userId);
  return count === undefined ? { mark: changes.get(userId) ?? 0 } : { count };
}

/** Keeps a count read from the database, unless the member's notifications changed since `mark`. */
export function keepUnread(userId: string, count: number, mark: number): void {
  if ((changes.get(userId) ?? 0) === mark) kept.set(userId, count);
}

export function forgetUnread(userId: string): void {
  kept.delete(userId);
  changes.set(userId, (changes.get(userId) ?? 0) + 1);
}
