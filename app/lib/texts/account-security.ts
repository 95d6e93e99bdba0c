// The Account settings screen: change password and change email (docs/decisions/067).
export const accountSettings = 'Account settings';
export const changePasswordTitle = 'Change password';
export const currentPasswordLabel = 'Current password';
export const newPasswordLabel = 'New password';
export const passwordChanged = 'Your password is changed. Your other devices are signed out.';
export const changeEmailTitle = 'Change email';
export const newEmailLabel = 'New email';
export const emailChangeSent = (email: string) => `We sent a link to ${email}. Your email changes when you open it.`;
export const emailChanged = 'Your email is changed.';
export const sameEmailRefused = 'That is already your email.';
export const wrongCurrentPassword = 'That password is not right.';
export const noPasswordYet = 'This account signs in through another service, so it has no password here to change.';
export const deleteAccountTitle = 'Delete account';
export const deleteAccountWhat =
  'This deletes your account for good: your profile, every post you wrote (Public and Hidden) with their comments, your comments on other posts, your likes, follows and wishlist, your sessions and any mail still waiting to be sent to you. It cannot be undone.';
export const exportBeforeYouGo = 'Want your posts first? Use “Download everything” above before you delete the account.';
export const deleteAccountConfirm = 'I understand: delete my account and everything in it';
export const deleteAccountButton = 'Delete my account';
export const accountDeletedText = 'Your account is deleted.';
export const confirmDeleteRequired = 'Tick the box to confirm.';
