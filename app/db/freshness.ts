import { BLOGS_FRESHNESS } from '~/features/blogs/blogs.freshness';
import { FEDERATION_FRESHNESS } from '~/features/federation/federation.freshness';
import { USERS_FRESHNESS } from '~/features/users/users.freshness';
import type { FreshnessRule } from './freshness-kit';

/**
 * Every freshness rule, gathered from the features that own the tables (docs/decisions/071), as
 * the job registry gathers their jobs: a feature states in `<feature>.freshness.ts` what its rows
 * make stale, next to nothing else, and joins this list. `freshness.server.ts` turns the list into
 * triggers after every migration run (docs/decisions/055). The rule's vocabulary is
 * ./freshness-kit.ts, re-exported here.
 */
export * from './freshness-kit';

export const FRESHNESS: readonly FreshnessRule[] = [...BLOGS_FRESHNESS, ...USERS_FRESHNESS, ...FEDERATION_FRESHNESS];
