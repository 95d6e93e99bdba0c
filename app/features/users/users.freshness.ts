import { blogsOfPerson, type FreshnessRule, scope, updateOf } from '~/db/freshness-kit';

/**
 * What the users feature's tables (and better-auth's user and session) make stale
 * (docs/decisions/055, 071). Gathered with the other features' in app/db/freshness.ts.
 */
export const USERS_FRESHNESS: readonly FreshnessRule[] = [
  // A person's shown name and photo: on their blogs, the blogs they commented on, lists and the session cache.
  { table: 'user', on: updateOf('name', 'image'), stale: [blogsOfPerson('id'), scope('lists')] },
  { table: 'profiles', on: { insert: true, ...updateOf('name', 'photo') }, stale: [blogsOfPerson('user_id'), scope('lists'), scope('sessions')] },
  // A writer's choice to show her view counts or not (decision 069): on her blogs' pages (and, more
  // than needed, those she commented on).
  { table: 'profiles', on: updateOf('show_views'), stale: [blogsOfPerson('user_id')] },
  // The session cache (decision 019): a session ended or changed, or an account's details changed.
  { table: 'session', on: { delete: true, update: true }, stale: [scope('sessions')] },
  { table: 'user', on: { delete: true, ...updateOf('name', 'email', 'image') }, stale: [scope('sessions')] },
];
