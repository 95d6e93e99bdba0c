/**
 * Moderation and the spam hold (docs/decisions/028, 029).
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/messages.ts).
 */

export const reportAlreadyOpen = 'You have already reported this; a moderator will look at it.';
export const reportOwnContent = 'You cannot report your own content.';
export const reportTargetMissing = 'There is nothing to report there.';
export const removedByModerator = 'Removed by a moderator';
export const removedEmpty = 'Nothing is removed.';
export const removedReason = (reason: string) => `Reason: ${reason}`;
export const moderatorsOnly = 'Only moderators and admins can do that.';
export const adminsOnly = 'Only admins can do that.';
export const suspended = (until: string | null) =>
  until ? `Your account is suspended until ${until}: you can read, but not write, like, comment or upload.` : 'Your account is suspended: you can read, but not write, like, comment or upload.';
export const commentBanned = 'You can no longer comment on this site.';
export const cannotModerateStaff = 'Moderators act only on writers, admins also on moderators; nobody acts on an admin or on themselves. Ask an admin.';
export const userNotFound = 'No such user.';
export const reportNotFound = 'No such open report.';
export const contentNotFound = 'No such blog or comment.';
export const moderationHeading = 'Moderation';
export const moderationQueueEmpty = 'No open reports.';
export const moderationHide = 'Hide';
export const moderationRestore = 'Restore';
export const moderationDelete = 'Delete';
export const moderationDismiss = 'Dismiss';
export const moderationSuspend = 'Suspend';
export const moderationCommentBan = 'Ban from commenting';
export const moderationReasonLabel = 'Reason (kept in the audit log)';
export const moderationDaysLabel = 'Days (empty: for good)';
export const moderationDone = 'Done.';
export const moderationReports = (count: number) => (count === 1 ? '1 report' : `${count} reports`);
export const moderatorsHeading = 'Moderators';
export const grantModerator = 'Make moderator';
export const revokeModerator = 'Remove moderator';
export const auditLogHeading = 'Audit log';
export const waitingForModerator = 'Waiting for a moderator';
export const waitingForModeratorText = 'Only you can see this until a moderator approves it: new accounts may share only a few links at first.';
export const approveAccount = 'Approve account';
export const approveContent = 'Approve';
export const pendingHeading = 'Waiting for approval';
export const pendingEmpty = 'Nothing is waiting for approval.';
export const heldAccountsHeading = 'New accounts on hold';
export const heldAccountsEmpty = 'No account is on hold.';
export const notPending = 'That is not waiting for approval.';
