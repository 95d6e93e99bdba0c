import { everyone, type ViewerWrites } from '~/db/freshness-kit';

/** Whose signed-in kept pages a write to the moderation feature's tables makes stale (docs/decisions/076, 078): a role or a standing shows anywhere. */
export const MODERATION_VIEWER_WRITES: ViewerWrites = {
  user_roles: everyone,
  moderation_log: everyone,
  reports: everyone,
  user_restrictions: everyone,
  account_approvals: everyone,
};
