/**
 * Accounts: logging in, signing up, passwords, profile, two-factor sign-in.
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const updateProfileLink = 'Update Profile';
export const noUserLoggedIn = 'No user logged in.';
export const myProfile = 'My Profile';
export const saveChanges = 'Save Changes';
export const saving = 'Saving...';
export const forgotPassword = 'Forgot password?';
export const logInButton = 'Log in';
export const logInWithGoogle = 'Log In with Google';
export const logInWith = (provider: string) => `Log In with ${provider}`;
export const signUp = 'Sign Up';
export const signUpWithGoogle = 'Sign Up with Google';
export const signUpWith = (provider: string) => `Sign Up with ${provider}`;
export const acceptTerms = 'please accept the terms and conditions.';
export const passwordHint = 'Must be more than 8 characters, including number, lowercase letter, uppercase letter';
export const emailHint = 'Enter valid email address';
export const loginSuccess = "You're successfully Logged In!";
export const loginErrorTitle = 'Error!';
export const loginErrorText = 'Failed to Log in';
export const signupSuccess = "You've Signed Up successfully!";
export const signupErrorTitle = 'Signup Failed!';
export const loggedOutTitle = 'Logged Out';
export const loggedOutText = 'You have been successfully logged out';
export const logoutErrorTitle = 'Oops...';
export const logoutErrorFallback = 'Something went wrong!';
export const logoutErrorFooter = 'Why do I have this issue?';
export const profileSavedTitle = 'Updated!';
export const profileSavedText = 'Profile updated successfully!';
export const profileErrorTitle = 'Error';
export const profileErrorText = 'Failed to update profile';
export const emailTaken = 'An account with this email already exists. Log in instead, or use another email.';
export const invalidCredentials = 'Invalid email or password';
export const forgotPasswordHeading = 'Forgot your password?';
export const forgotPasswordIntro = 'Enter the email you signed up with and we will send you a link to choose a new password.';
export const sendResetLink = 'Send reset link';
export const resetLinkSentTitle = 'Check your email';
export const resetLinkSentText = 'If an account exists for that email, a link to reset the password is on its way. It works once, within an hour.';
export const resetPasswordHeading = 'Choose a new password';
export const newPassword = 'New password';
export const saveNewPassword = 'Save new password';
export const passwordResetTitle = 'Password changed';
export const passwordResetText = 'Your password has been changed and every other session has been signed out. Log in with the new password.';
export const resetLinkInvalid = 'This reset link is invalid or has expired. Please ask for a new one.';
export const changePhotoHint = 'Click Change to update your photo.';
export const change = 'Change';
export const noAccount = "Don't have an account?";
export const haveAccount = 'Already have an account?';
export const register = 'Register';
export const acceptTermsLabel = 'I accept the terms and conditions';
export const showPassword = 'Show password';
export const twoFactorHeading = 'Two-factor authentication';
export const twoFactorOffText = 'Add a second step to signing in: a 6-digit code from an authenticator app on your phone.';
export const twoFactorOnText = 'Two-factor authentication is on. Signing in with your password also asks for a code from your authenticator app.';
export const twoFactorPasswordHint = 'Enter your password to confirm it is you.';
export const twoFactorEnableButton = 'Set up two-factor';
export const twoFactorDisableButton = 'Turn off two-factor';
export const twoFactorScan = 'Scan this QR code with your authenticator app, or type the key below into it.';
export const twoFactorSecretLabel = 'Key for manual entry';
export const twoFactorRecoveryTitle = 'Recovery codes';
export const twoFactorRecoveryText = 'Keep these codes somewhere safe: each one signs you in once if you lose your phone. They are shown only now.';
export const twoFactorConfirmLabel = 'Code from the app';
export const twoFactorConfirmButton = 'Confirm and turn on';
export const twoFactorEnabled = 'Two-factor authentication is on.';
export const twoFactorDisabled = 'Two-factor authentication is off.';
export const twoFactorCodeHeading = 'Enter your code';
export const twoFactorCodeIntro = 'Open your authenticator app and enter the 6-digit code for this site. Lost your phone? Enter one of your recovery codes instead.';
export const twoFactorCodeLabel = 'Code';
export const twoFactorCodeButton = 'Verify';
export const twoFactorStartOver = 'Start over';
export const twoFactorInvalidCode = 'That code is not right. Enter the current code from your app, or an unused recovery code.';
export const twoFactorExpired = 'This sign-in has expired. Please enter your email and password again.';
export const twoFactorLocked = 'Too many wrong codes. Two-factor sign-in for this account is locked for 15 minutes.';
export const twoFactorWrongPassword = 'That password is not right.';
export const twoFactorCodeRequired = 'Enter the code from your app or a recovery code.';
export const hidePassword = 'Hide password';
/** Friendly texts for the identity provider's error codes (docs/product.md#messages). */
export const socialErrors = {
  'unauthorized-domain': 'Signing in from this address is not allowed by the provider.',
  'popup-blocked': 'The sign-in window was blocked by your browser. Please allow pop-ups and try again.',
  'popup-closed-by-user': 'The sign-in window was closed before signing in finished. Please try again.',
  'cancelled-popup-request': 'Another sign-in window is already open. Please finish or close it first.',
  'network-request-failed': 'The provider could not be reached. Check your connection and try again.',
  'web-storage-unsupported': 'Your browser blocks the cookies sign-in needs. Please allow them and try again.',
  'invalid-api-key': 'Signing in with this provider is not set up correctly. Please use email and password.',
  'internal-error': 'The provider could not sign you in. Please try again.',
} as const;
const inMinutes = (seconds: number) => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
/** Sign-in refused because of wrong passwords tried for this account from devices new to it (docs/decisions/049). */
export const signInResting = (seconds: number) =>
  `Too many wrong passwords were tried for this account from devices that never signed in to it. A device that has signed in to it before can still sign in; from this one, try again in ${inMinutes(seconds)}.`;
/** A reset mail refused: this email's reset links were asked for too often (docs/decisions/049). */
export const resetResting = (seconds: number) =>
  `Reset links for this email were asked for too often in the last hour. If it has an account, the link in the newest mail works; or ask again in ${inMinutes(seconds)}.`;
/** The current password was given wrong too often by this account (docs/decisions/049). */
export const passwordCheckResting = (seconds: number) => `Too many wrong passwords for this account. Try again in ${inMinutes(seconds)}.`;
