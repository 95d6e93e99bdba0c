import { z } from 'zod';
import { type MODERATED_CONTENT, MODERATION_REASON_MAX, REPORT_DETAILS_MAX, REPORT_REASONS, REPORT_TARGET_TYPES, SUSPEND_FOR_GOOD, SUSPENSION_DAYS_MAX } from './moderation.constants';

export * from './moderation.constants';

const reason = z.string().trim().min(1, 'Give a reason').max(MODERATION_REASON_MAX, `At most ${MODERATION_REASON_MAX} characters`);

export const ReportSchema = z.object({
  targetType: z.enum(REPORT_TARGET_TYPES),
  targetId: z.string().trim().min(1).max(100),
  reason: z.enum(REPORT_REASONS),
  details: z.string().trim().max(REPORT_DETAILS_MAX, `At most ${REPORT_DETAILS_MAX} characters`).optional().default(''),
});
export type ReportInput = z.infer<typeof ReportSchema>;

/** Every moderator action carries a reason; it goes into the audit log. */
export const ModerationReasonSchema = z.object({ reason });
export type ModerationReasonInput = z.infer<typeof ModerationReasonSchema>;

/** `days` absent or null: for good. */
export const SuspendSchema = z.object({
  reason,
  days: z.coerce.number().int().min(1).max(SUSPENSION_DAYS_MAX).nullable().optional(),
});
export type SuspendInput = z.infer<typeof SuspendSchema>;

/**
 * The page forms' suspension: `period` is a number of days or the word for good, never empty
 * (docs/decisions/061); it comes out as the API's input.
 */
export const SuspendFormSchema = z
  .object({
    reason,
    period: z.union([z.literal(SUSPEND_FOR_GOOD), z.coerce.number().int().min(1).max(SUSPENSION_DAYS_MAX)], { error: 'Choose how long: a number of days, or for good' }),
  })
  .transform(({ reason, period }): SuspendInput => ({ reason, days: period === SUSPEND_FOR_GOOD ? null : period }));

export const GrantModeratorSchema = z.object({ email: z.email().max(254), reason: reason.optional().default('Granted moderator') });
export type GrantModeratorInput = z.infer<typeof GrantModeratorSchema>;

export const ContentPathSchema = z.enum(['blogs', 'comments']);
export type ModeratedContentPath = z.infer<typeof ContentPathSchema>;
export type ModeratedContent = (typeof MODERATED_CONTENT)[ModeratedContentPath];

export const AuditPageSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
