/**
 * The writer's desk: drafts kept on the server, scheduling, a post's history (docs/decisions/070).
 */

export const draftNotFound = 'Draft not found';
export const draftSaved = 'Saved';
export const draftSaving = 'Saving…';
export const draftUnsaved = 'Not saved yet';
export const draftSaveFailed = 'Not saved: retrying';
export const draftBack = 'Your draft is back.';
export const scheduleInPast = 'Choose a time in the future.';
export const scheduleTooFar = 'Choose a time within a year.';
export const scheduledToast = 'Your post is scheduled';
export const scheduleCancelled = 'The schedule is cancelled; your post is a draft again.';
export const publishedShareTitle = 'Published — share it';
export const revisionNotFound = 'Version not found';
export const revisionRestored = 'That version is back';
export const draftOtherAccount = 'This draft was opened for another account; it was not saved.';
