import { z } from 'zod';

/** The reasons a reader picks from when reporting (issue 19); free text may add to any. */
export const REPORT_REASONS = ['Spam', 'Harassment or hate', 'Sexual or violent content', 'Misinformation', 'Copyright', 'Something else'] as const;
export const REPORT_TARGET_TYPES = ['blog', 'comment', 'user'] as const;
export const ROLES = ['admin', 'moderator'] as const;
export const MODERATION_REASON_MAX = 500;
/** Reports per client address, shared by the API and the report form: plenty for a reader, too few to flood the queue. */
export const REPORT_DETAILS_MAX = 1000;
/** The longest suspension with an end; longer ones are "for good". */
export const SUSPENSION_DAYS_MAX = 3650;

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

export const GrantModeratorSchema = z.object({ email: z.email().max(254), reason: reason.optional().default('Granted moderator') });
export type GrantModeratorInput = z.infer<typeof GrantModeratorSchema>;

export const MODERATED_CONTENT = { blogs: 'blog', comments: 'comment' } as const;
export const ContentPathSchema = z.enum(['blogs', 'comments']);
export type ModeratedContentPath = z.infer<typeof ContentPathSchema>;
export type ModeratedContent = (typeof MODERATED_CONTENT)[ModeratedContentPath];

export const AuditPageSchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
