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
