import { BLOG_OPERATIONS, DRAFT_OPERATIONS } from './blogs.api.server';
import { COMMENT_OPERATIONS } from './comments.api.server';
import type { Operation } from './endpoints.server';
import { EXPORT_OPERATIONS } from './exports.api.server';
import { FEDERATION_OPERATIONS } from './federation.api.server';
import { IMAGE_OPERATIONS } from './images.api.server';
import { MODERATION_OPERATIONS } from './moderation.api.server';
import { SUBSCRIBER_OPERATIONS } from './newsletter.api.server';
import { NOTIFICATION_OPERATIONS } from './notifications.api.server';
import { TAG_OPERATIONS } from './tags.api.server';
import { ACCOUNT_OPERATIONS, USER_OPERATIONS } from './users.api.server';
import { WISHLIST_OPERATIONS } from './wishlist.api.server';

/**
 * Every /api operation, each defined once with its policy and handler (defineOperation,
 * docs/decisions/056). What is mounted, documented, cached and tested is read from here.
 */
export const OPERATIONS: readonly Operation[] = [
  ...ACCOUNT_OPERATIONS,
  ...USER_OPERATIONS,
  ...BLOG_OPERATIONS,
  ...DRAFT_OPERATIONS,
  ...WISHLIST_OPERATIONS,
  ...SUBSCRIBER_OPERATIONS,
  ...IMAGE_OPERATIONS,
  ...COMMENT_OPERATIONS,
  ...MODERATION_OPERATIONS,
  ...NOTIFICATION_OPERATIONS,
  ...TAG_OPERATIONS,
  ...EXPORT_OPERATIONS,
  ...FEDERATION_OPERATIONS,
];
