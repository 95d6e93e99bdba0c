/**
 * The mails that tell an account's owner about a change to it (docs/decisions/067). Plain text,
 * sent at once like the reset mail: each says what changed and what to do when it was not them.
 */
export type Mail = { to: string; subject: string; text: string };

const hello = (name: string | null) => `Hello ${name || 'there'},`;

export function passwordChangedMail(siteName: string, user: { email: string; name: string | null }, resetUrl: string): Mail {
  return {
    to: user.email,
    subject: `Your ${siteName} password was changed`,
    text: [
      hello(user.name),
      '',
      `The password of your ${siteName} account was just changed, and every other device signed in to it was signed out.`,
      '',
      'If this was not you, choose a new password now through this page (it signs everyone out again):',
      '',
      resetUrl,
    ].join('\n'),
  };
}

/** To the new address: the link that makes the change. */
export function confirmNewEmailMail(siteName: string, user: { name: string | null }, newEmail: string, url: string): Mail {
  return {
    to: newEmail,
    subject: `Confirm your new ${siteName} email`,
    text: [
      hello(user.name),
      '',
      `To make ${newEmail} the email of your ${siteName} account, open this link within an hour:`,
      '',
      url,
      '',
      'If you did not ask for this, ignore this mail: nothing changes.',
    ].join('\n'),
  };
}

/** To the old address, when the change is asked: it has not happened yet, and how to stop it. */
export function emailChangeAskedMail(siteName: string, user: { email: string; name: string | null }, newEmail: string, resetUrl: string): Mail {
  return {
    to: user.email,
    subject: `Your ${siteName} email is about to change`,
    text: [
      hello(user.name),
      '',
      `Someone signed in to your ${siteName} account asked to change its email to ${newEmail}. It changes only once that address opens the link we sent it.`,
      '',
      'If this was not you, someone knows your password: choose a new one now through this page. That signs every device out, and the link sent to the other address stops working.',
      '',
      resetUrl,
    ].join('\n'),
  };
}

/**
 * To an author whose posts an admin brought over from another platform: her new account has no
 * password yet, and this link lets her choose one (docs/decisions/083).
 */
export function claimAccountMail(siteName: string, user: { email: string; name: string | null }, q: { url: string; posts: number; days: number }): Mail {
  return {
    to: user.email,
    subject: `Your posts are on ${siteName}: set your password`,
    text: [
      hello(user.name),
      '',
      `The team of ${siteName} moved the site here, with your ${q.posts === 1 ? 'post' : `${q.posts} posts`}. They are under a new account in your name, with this email and no password yet.`,
      '',
      `To set your password and sign in, open this link within ${q.days} days:`,
      '',
      q.url,
      '',
      `The link works once. If you do not want the account, ignore this mail; you can ask the team of ${siteName} to remove it.`,
    ].join('\n'),
  };
}
