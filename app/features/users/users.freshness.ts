import { blogsOfPerson, everyone, type FreshnessRule, scope, unshown, updateOf, type ViewerWrites } from '~/db/freshness-kit';

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

/**
 * Whose signed-in kept pages a write to the users feature's tables, and better-auth's, makes
 * stale (docs/decisions/076, 078): a shown name, photo or session is anyone's page.
 */
export const USERS_VIEWER_WRITES: ViewerWrites = {
  user: everyone,
  profiles: everyone,
  session: everyone,
  account: everyone,
  verification: everyone,
  twoFactor: everyone,
  // Passkeys are listed on the account page only, which no memo keeps.
  passkey: unshown,
};
