import type { z } from 'zod';
import { BlogFormSchema, CommentSchema, PreviewSchema } from '~/features/blogs/blogs.schema';
import { FollowFormSchema } from '~/features/follows/follows.schema';
import { GrantModeratorSchema, ModerationReasonSchema, ReportSchema, SuspendSchema } from '~/features/moderation/moderation.schema';
import { DeliverySchema, SubscribeSchema } from '~/features/newsletter/newsletter.schema';
import { NotificationSettingsSchema } from '~/features/notifications/notifications.schema';
import { ForgotPasswordSchema, LogInSchema, ResetPasswordSchema, SignUpSchema, UpdateProfileSchema } from '~/features/users/users.schema';
import { AddWishlistFormSchema } from '~/features/wishlist/wishlist.schema';
import { RATE_LIMITS, type RateLimitRule } from '~/lib/rate-limits';

/**
 * What every page form's action answers to (issue 14, docs/decisions/033): the API's
 * declarations (server/api/openapi.server.ts) do the same for /api. Keyed by the route module as
 * app/routes.ts names it; tests/security/coverage.security.test.ts walks app/routes.ts and fails
 * for a module with an `action` that is not declared here, and for a declared rate rule or schema
 * that no code the module reaches counts or parses.
 */
export interface PageActionPolicy {
  /**
   * `user`: a signed-out post changes nothing (it is sent to log in, or answered 401 with the
   * typed text); `mail-link`: the signed link in the path proves who asks (or the session);
   * `none`: anyone, so it must be rate-limited.
   */
  auth: 'user' | 'mail-link' | 'none';
  /** The rules its use cases count, through ctx.limit or the auth port (app/lib/rate-limits.ts). */
  limits: readonly RateLimitRule[];
  /** The schemas the form is parsed with; 'id' when it carries only ids the use case looks up. */
  input: readonly z.ZodType[] | 'id';
}

export const PAGE_ACTIONS: Readonly<Record<string, PageActionPolicy>> = {
  'routes/home.tsx': { auth: 'none', limits: [RATE_LIMITS.subscribe], input: [SubscribeSchema] },
  'routes/newsletter.tsx': { auth: 'none', limits: [RATE_LIMITS.subscribe], input: [SubscribeSchema] },
  'routes/login.tsx': { auth: 'none', limits: [RATE_LIMITS.signIn, RATE_LIMITS.signInEmail, RATE_LIMITS.twoFactor], input: [LogInSchema] },
  'routes/register.tsx': { auth: 'none', limits: [RATE_LIMITS.signUp, RATE_LIMITS.upload], input: [SignUpSchema] },
  'routes/forgot-password.tsx': { auth: 'none', limits: [RATE_LIMITS.resetRequest, RATE_LIMITS.resetRequestEmail], input: [ForgotPasswordSchema] },
  'routes/reset-password.tsx': { auth: 'none', limits: [RATE_LIMITS.reset], input: [ResetPasswordSchema] },
  'routes/logout.tsx': { auth: 'user', limits: [], input: 'id' },
  'routes/profile.tsx': { auth: 'user', limits: [RATE_LIMITS.twoFactor], input: 'id' },
  'routes/update-profile.tsx': { auth: 'user', limits: [RATE_LIMITS.upload], input: [UpdateProfileSchema] },
  'routes/add-blog.tsx': { auth: 'user', limits: [RATE_LIMITS.upload], input: [BlogFormSchema] },
  'routes/update-blog.tsx': { auth: 'user', limits: [RATE_LIMITS.upload], input: [BlogFormSchema] },
  'routes/blog-preview.ts': { auth: 'user', limits: [], input: [PreviewSchema] },
  'routes/blog-detail.tsx': { auth: 'user', limits: [RATE_LIMITS.comment], input: [CommentSchema] },
  'routes/comment-thread.tsx': { auth: 'user', limits: [RATE_LIMITS.comment], input: [CommentSchema] },
  'routes/blog-like.tsx': { auth: 'user', limits: [], input: 'id' },
  'routes/wishlist.tsx': { auth: 'user', limits: [], input: 'id' },
  'routes/wishlist-add.tsx': { auth: 'user', limits: [], input: [AddWishlistFormSchema] },
  'routes/follow.tsx': { auth: 'user', limits: [], input: [FollowFormSchema] },
  'routes/following.tsx': { auth: 'user', limits: [], input: 'id' },
  'routes/notifications.tsx': { auth: 'user', limits: [], input: 'id' },
  'routes/mail-preferences.tsx': { auth: 'mail-link', limits: [], input: [DeliverySchema, NotificationSettingsSchema] },
  'routes/mail-unsubscribe.tsx': { auth: 'mail-link', limits: [], input: 'id' },
  'routes/report.tsx': { auth: 'user', limits: [RATE_LIMITS.report], input: [ReportSchema] },
  'routes/moderation.tsx': { auth: 'user', limits: [], input: [GrantModeratorSchema, ModerationReasonSchema, SuspendSchema] },
};
