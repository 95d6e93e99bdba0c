import { BLOGS_FRESHNESS, BLOGS_VIEWER_WRITES } from '~/features/blogs/blogs.freshness';
import { EXPORTS_VIEWER_WRITES } from '~/features/exports/exports.freshness';
import { FEDERATION_FRESHNESS, FEDERATION_VIEWER_WRITES } from '~/features/federation/federation.freshness';
import { FOLLOWS_VIEWER_WRITES } from '~/features/follows/follows.freshness';
import { IMAGES_VIEWER_WRITES } from '~/features/images/images.freshness';
import { IMPORTS_VIEWER_WRITES } from '~/features/imports/imports.freshness';
import { MAIL_VIEWER_WRITES } from '~/features/mail/mail.freshness';
import { MODERATION_VIEWER_WRITES } from '~/features/moderation/moderation.freshness';
import { NEWSLETTER_VIEWER_WRITES } from '~/features/newsletter/newsletter.freshness';
import { NOTIFICATIONS_VIEWER_WRITES } from '~/features/notifications/notifications.freshness';
import { TAGS_VIEWER_WRITES } from '~/features/tags/tags.freshness';
import { USERS_FRESHNESS, USERS_VIEWER_WRITES } from '~/features/users/users.freshness';
import { WISHLIST_VIEWER_WRITES } from '~/features/wishlist/wishlist.freshness';
import { JOBS_VIEWER_WRITES } from '~/kernel/jobs.freshness';
import { followed, type FreshnessRule, unshown, type ViewerWrite, type ViewerWrites } from './freshness-kit';

/**
 * Every freshness rule, gathered from the features that own the tables (docs/decisions/071), as
 * the job registry gathers their jobs: a feature states in `<feature>.freshness.ts` what its rows
 * make stale, next to nothing else, and joins this list. `freshness.server.ts` turns the list into
 * triggers after every migration run (docs/decisions/055). The rule's vocabulary is
 * ./freshness-kit.ts, re-exported here.
 */
export * from './freshness-kit';

export const FRESHNESS: readonly FreshnessRule[] = [...BLOGS_FRESHNESS, ...USERS_FRESHNESS, ...FEDERATION_FRESHNESS];

/** The database layer's own tables: the migrator's, and the versions the rules move. */
const DB_VIEWER_WRITES: ViewerWrites = {
  content_versions: followed,
  content_version_stripes: followed,
  // Writers' versions, which the kept blog pages compare (docs/decisions/093).
  writer_versions: followed,
  kysely_migration: unshown,
  kysely_migration_lock: unshown,
};

/**
 * Every table's class for signed-in readers' kept pages (docs/decisions/076, 078), gathered the
 * same way from the features' `<feature>.freshness.ts`; ./viewer-writes.server.ts reads it. A
 * table is classified by one owner only.
 */
export const VIEWER_WRITES: ReadonlyMap<string, ViewerWrite> = gather([
  DB_VIEWER_WRITES,
  JOBS_VIEWER_WRITES,
  BLOGS_VIEWER_WRITES,
  EXPORTS_VIEWER_WRITES,
  FEDERATION_VIEWER_WRITES,
  FOLLOWS_VIEWER_WRITES,
  IMAGES_VIEWER_WRITES,
  IMPORTS_VIEWER_WRITES,
  MAIL_VIEWER_WRITES,
  MODERATION_VIEWER_WRITES,
  NEWSLETTER_VIEWER_WRITES,
  NOTIFICATIONS_VIEWER_WRITES,
  TAGS_VIEWER_WRITES,
  USERS_VIEWER_WRITES,
  WISHLIST_VIEWER_WRITES,
]);

function gather(lists: readonly ViewerWrites[]): ReadonlyMap<string, ViewerWrite> {
  const all = new Map<string, ViewerWrite>();
  for (const list of lists) {
    for (const [table, write] of Object.entries(list)) {
      if (all.has(table)) throw new Error(`viewer writes: table "${table}" is classified twice`);
      all.set(table, write);
    }
  }
  return all;
}
