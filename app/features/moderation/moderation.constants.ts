/**
 * Moderation's choice lists and limits, without zod: the report form (on every blog and author
 * page) imports them from here so those pages do not load zod (docs/decisions/038).
 * moderation.schema re-exports them.
 */

/** The reasons a reader picks from when reporting (docs/decisions/028); free text may add to any. */
export const REPORT_REASONS = ['Spam', 'Harassment or hate', 'Sexual or violent content', 'Misinformation', 'Copyright', 'Something else'] as const;
export const REPORT_TARGET_TYPES = ['blog', 'comment', 'user'] as const;
export const ROLES = ['admin', 'moderator'] as const;
export const MODERATION_REASON_MAX = 500;
/** Reports per client address, shared by the API and the report form: plenty for a reader, too few to flood the queue. */
export const REPORT_DETAILS_MAX = 1000;
/** The longest suspension with an end; longer ones are "for good". */
export const SUSPENSION_DAYS_MAX = 3650;

export const MODERATED_CONTENT = { blogs: 'blog', comments: 'comment' } as const;

/**
 * How long a suspension from a page form lasts: a number of days, or "for good" said in so many
 * words. An empty choice is refused, so forgetting the field never suspends for good (decision 061).
 */
export const SUSPEND_PERIODS = ['1', '3', '7', '30', '365', 'forever'] as const;
export const SUSPEND_FOR_GOOD = 'forever';
