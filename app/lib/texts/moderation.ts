/**
 * Moderation and the spam hold (docs/decisions/028, 029).
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

/** Who reported, for a report that came from another server (docs/decisions/080). */
export const reportedFrom = (host: string) => `Reported from ${host}`;
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
export const moderationPeriodLabel = 'Suspend for';
export const moderationPeriodChoose = 'Choose…';
export const moderationPeriod = (period: string) => (period === 'forever' ? 'For good' : period === '1' ? '1 day' : `${period} days`);
export const moderationPeriodMissing = 'Choose how long the suspension lasts: a number of days, or for good.';
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
export const suspendedUntilLead = 'Your account is suspended until';
export const suspendedForGood = 'Your account is suspended for good.';
export const suspendedWhatStill = 'You can read, but not write, like, comment or upload, so the forms here are off.';
export const moderationUnsuspend = 'Lift suspension';
export const moderateWriter = 'Moderate';
export const writerSuspended = (until: string | null) => (until ? 'Suspended until' : 'Suspended for good');
export const writerOnHold = 'New account on the spam hold';
export const deleteContentTitle = (type: string) => `Delete this ${type} for good?`;
/**
 * The audit log in words (decision 061): a recorded action as the words before and after its
 * target ("banned" … "from commenting").
 */
export const auditAction = (action: string): { verb: string; after: string } => {
  if (action.startsWith('suspend_until ')) return { verb: 'suspended', after: '' };
  const words: Record<string, [string, string?]> = {
    hide: ['hid'],
    restore: ['restored'],
    delete: ['deleted'],
    approve: ['approved'],
    approve_account: ['approved the account of'],
    dismiss_report: ['dismissed'],
    suspend: ['suspended', 'for good'],
    unsuspend: ['lifted the suspension of'],
    comment_ban: ['banned', 'from commenting'],
    lift_comment_ban: ['let', 'comment again'],
    grant_admin: ['made', 'an admin'],
    revoke_admin: ['removed', 'as admin'],
    grant_moderator: ['made', 'a moderator'],
    revoke_moderator: ['removed', 'as moderator'],
    block: ['blocked'],
    unblock: ['unblocked'],
  };
  const [verb, after = ''] = words[action] ?? [action.replaceAll('_', ' ')];
  return { verb, after };
};
/** What an entry was about, by its name now; what is gone since is named by its kind alone. */
export const auditTarget = (type: string, name: string | null): string => {
  if (type === 'comment') return name === null ? 'a comment' : `a comment on “${name}”`;
  if (type === 'blog') return name === null ? 'a blog' : `“${name}”`;
  if (type === 'report') return 'a report';
  // Blocks on the fediverse (docs/decisions/080): named by what was blocked, which stays readable.
  if (type === 'remote_account') return `the account ${name ?? 'on another server'}`;
  if (type === 'instance') return `the server ${name ?? 'elsewhere'}`;
  return name ?? 'an account no longer here';
};
export const auditWhy = (reason: string) => `Why: ${reason}`;
