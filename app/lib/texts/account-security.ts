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
// Passkeys: sign in with the device's lock instead of a password (docs/decisions/075).
export const passkeysTitle = 'Passkeys';
export const passkeysWhat = 'A passkey lets you sign in with this device’s screen lock, fingerprint or face instead of your password. Your password keeps working.';
export const passkeysNone = 'You have no passkeys yet.';
export const passkeyNameLabel = 'Name (optional)';
export const passkeyAddButton = 'Add a passkey';
export const passkeyAdded = 'Your passkey is added. You can sign in with it now.';
export const passkeyRemoveButton = (name: string) => `Remove ${name}`;
export const passkeyRemoved = 'Your passkey is removed.';
export const passkeyUnnamed = 'Passkey';
export const passkeyAddedOn = (date: string) => `Added ${date}`;
export const passkeyNeedsScript = 'Adding a passkey needs JavaScript in this browser.';
export const passkeyFailed = 'The passkey was not saved. Try again, or sign in again first if you signed in long ago.';
export const passkeySignInButton = 'Sign in with a passkey';
export const passkeySignInFailed = 'That passkey did not sign you in. Use your password, or try another passkey.';
