/**
 * The site's frame (navigation, menus, error pages) and the answers every screen may give.
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

/** Every form's empty required field (docs/product.md#validation). */
export const fieldRequired = 'This field is required';
export const notFoundHeading = 'No Page found!';
export const notFoundText = 'Opps!! No Content Found With the route.';
export const backToHome = 'Back To Home';
export const logIn = 'Log In';
export const defaultDisplayName = 'User';
export const profile = 'Profile';
export const logout = 'Logout';
export const serverErrorHeading = 'Something went wrong';
export const serverError = 'Something went wrong on our side. Please try again in a moment.';
export const forbiddenHeading = 'Not allowed';
export const unavailableHeading = 'Briefly unavailable';
/** A form sent after the session ended (signed out in another tab, expired): nothing is lost. */
export const formFailed = 'Failed to send the form';
export const formTooLarge = (limit: string) => `The form is too large to send: at most ${limit}.`;
export const sessionEnded = 'You were signed out, so this was not saved. What you typed is kept.';
export const signInAgain = 'Log in again';
export const signInAgainThen = '(opens a new tab), then send it again.';
export const apiNotFound = 'Not found';
export const malformedJson = 'Malformed JSON body';
export const bodyCutOff = 'The request body was cut off before it arrived whole.';
export const unavailable = 'The site is briefly unavailable. Please try again in a moment.';
export const authRequired = 'You need to be logged in to do that.';
export const forbidden = 'You are not allowed to do that.';
export const tooManyRequests = 'Too many attempts from your network. Please wait a little and try again.';
export const moderationNav = 'Moderation';
