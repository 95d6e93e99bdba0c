/**
 * The newsletter form, mails, mail preferences and following writers.
 * The product's texts verbatim, each in one place; read them through `MESSAGES` (app/lib/texts/messages.ts).
 */

export const newsletterHeading = 'Never Miss a New Story!';
export const subscribe = 'Subscribe';
export const subscribeEmptyTitle = 'Oops!';
export const subscribeEmptyText = 'Please enter an email address.';
export const subscribedTitle = 'Subscribed!';
export const alreadySubscribedTitle = 'Already Subscribed';
export const subscribeErrorTitle = 'Error';
export const subscribeErrorText = 'Subscription failed. Try again later.';
export const subscribeSuccessMessage = 'Thanks for subscribing! New stories will find their way to your inbox.';
export const alreadySubscribedMessage = 'This email is already on our list. Thanks for staying with us!';
export const following = 'Following';
export const followSelf = 'You cannot follow yourself.';
export const writerNotFound = 'That writer does not exist.';
export const followingEmpty = 'You are not following anyone yet. Open a blog you liked and follow its writer.';
export const followingIntro = 'New posts by these writers come to your inbox.';
export const mailLinkInvalid = 'This link is not valid. It may have been cut short, or the subscription it was for has ended.';
export const subscriptionConfirmedTitle = 'Subscription confirmed';
export const subscriptionConfirmedText = 'Thanks! New stories will now come to';
export const unsubscribeTitle = 'Unsubscribe';
export const unsubscribeButton = 'Unsubscribe';
export const unsubscribedTitle = 'You are unsubscribed';
export const unsubscribedNewsletter = 'No more newsletter mail will be sent to';
export const unsubscribedFollow = 'You no longer follow';
export const unsubscribedFollows = 'You no longer follow any writer, and their posts will not be mailed to you.';
export const preferencesTitle = 'Mail preferences';
export const preferencesSaved = 'Your preferences are saved.';
export const newsletterLabel = 'Newsletter';
export const deliveryPost = 'A mail per post';
export const deliveryDigest = 'A daily digest';
export const notSubscribed = 'This address is not subscribed to the newsletter.';
