/**
 * Reporting and following, offered on blog and author pages.
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const report = 'Report';
export const reportHeading = 'Report this';
export const reportReasonLabel = 'Reason';
export const reportDetailsLabel = 'Anything else a moderator should know (optional)';
export const sendReport = 'Send report';
export const reportSent = 'Thank you. A moderator will look at it.';
export const reportAuthor = 'Report this writer';
export const follow = 'Follow';
export const unfollow = 'Unfollow';
