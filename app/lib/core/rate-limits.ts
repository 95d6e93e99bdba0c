/**
 * Every rate limit of the site, declared once (docs/decisions/015, 021 and 033). A
 * rule names its counter, so the API and the page forms that apply it share one count: use
 * cases apply theirs with `ctx.limit(rule)`; better-auth's own endpoints are counted by path
 * (`AUTH_ENDPOINT_LIMITS`), for /api/auth/* and for the page forms that call them alike.
 */
export interface RateLimitRule {
  /** Names the counter, so a page action and an API route can share one. */
  name: string;
  limit: number;
  windowMs: number;
  /** Whose counter: the client address (its /64 for IPv6), or the account (the body's email, or the session's). */
  key: 'client' | 'email';
  /**
   * `failures`: only wrong passwords are counted (after the answer), and a request is refused
   * once the window holds `limit` of them (docs/decisions/049); otherwise every request counts.
   */
  counts?: 'failures';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RATE_LIMITS = {
  /** Sign-in and the reset mail follow Ghost's lesson: 5 an hour (docs/decisions/007, 015). */
  signIn: { name: 'sign-in', limit: 5, windowMs: HOUR, key: 'client' },
  signUp: { name: 'sign-up', limit: 5, windowMs: HOUR, key: 'client' },
  resetRequest: { name: 'password-reset-request', limit: 5, windowMs: HOUR, key: 'client' },
  reset: { name: 'password-reset', limit: 10, windowMs: HOUR, key: 'client' },
  /** Each mails two addresses, one of them any address typed in. */
  changeEmail: { name: 'change-email', limit: 5, windowMs: HOUR, key: 'client' },
  /** Every /two-factor/* call: the code step of a sign-in, enabling and disabling (password). */
  twoFactor: { name: 'two-factor', limit: 10, windowMs: 15 * MINUTE, key: 'client' },
  /**
   * Per account, whatever address asks (docs/decisions/021, 049): wrong passwords from devices
   * that never signed in to the account, and reset mails asked from such devices. A device that
   * did (its signed cookie says so) is not held back by strangers' tries.
   */
  signInEmail: { name: 'sign-in-failures', limit: 5, windowMs: HOUR, key: 'email', counts: 'failures' },
  resetRequestEmail: { name: 'password-reset-request-email', limit: 5, windowMs: HOUR, key: 'email' },
  /** Wrong current passwords given by a signed-in account (verify-password, change-password, delete-user, two-factor set-up). */
  passwordCheck: { name: 'password-check-failures', limit: 10, windowMs: 15 * MINUTE, key: 'email', counts: 'failures' },
  /** Writing limits (Mastodon-style throttles): generous for a person, pointless for a script. */
  comment: { name: 'comment', limit: 30, windowMs: HOUR, key: 'client' },
  upload: { name: 'upload', limit: 30, windowMs: 30 * MINUTE, key: 'client' },
  /** Each renders a body of up to 100,000 characters in the render pool (docs/decisions/047). */
  blogWrite: { name: 'blog-write', limit: 60, windowMs: HOUR, key: 'client' },
  preview: { name: 'preview', limit: 60, windowMs: 10 * MINUTE, key: 'client' },
  /** The writing canvas saves a draft every few seconds while the writer types (docs/decisions/070). */
  draftSave: { name: 'draft-save', limit: 600, windowMs: 10 * MINUTE, key: 'client' },
  /** Activities a remote server posts to our inboxes, per its address (docs/decisions/068). */
  federationInbox: { name: 'federation-inbox', limit: 600, windowMs: MINUTE, key: 'client' },
  /** A browser sends one per blog it opens ('viewedBlogs', docs/product.md#views): a minute's reading is far below it. */
  view: { name: 'view', limit: 60, windowMs: 10 * MINUTE, key: 'client' },
  /** Each asks another server (WebFinger, the actor) and sends it a Follow (docs/decisions/081, 089). */
  remoteFollow: { name: 'remote-follow', limit: 30, windowMs: HOUR, key: 'client' },
  subscribe: { name: 'subscribe', limit: 20, windowMs: HOUR, key: 'client' },
  report: { name: 'report', limit: 20, windowMs: HOUR, key: 'client' },
  /** Each export reads and writes every picture it holds (docs/decisions/074). */
  exportRequest: { name: 'export-request', limit: 10, windowMs: 24 * HOUR, key: 'client' },
} as const satisfies Record<string, RateLimitRule>;

/** better-auth's two-factor endpoints that check a password or a code: one shared counter. */
export const TWO_FACTOR_ENDPOINTS = ['enable', 'disable', 'verify-totp', 'verify-backup-code', 'get-totp-uri', 'generate-backup-codes'] as const;

/** The two-factor steps that take the account's password. */
const PASSWORD_STEPS: ReadonlySet<string> = new Set(['enable', 'disable', 'get-totp-uri', 'generate-backup-codes']);

/**
 * better-auth's endpoints (paths under /api/auth) and their rules. The HTTP layer counts them
 * for /api/auth/* before better-auth reads the body; the auth port counts them for the page
 * forms' calls; the per-account rules are counted inside better-auth's `before` hook, which both
 * doors pass through.
 */
export const AUTH_ENDPOINT_LIMITS: Readonly<Record<string, readonly RateLimitRule[]>> = {
  '/sign-in/email': [RATE_LIMITS.signIn, RATE_LIMITS.signInEmail],
  // A passkey's signature cannot be guessed, but its tries count as sign-ins all the same.
  '/passkey/verify-authentication': [RATE_LIMITS.signIn],
  '/sign-up/email': [RATE_LIMITS.signUp],
  '/request-password-reset': [RATE_LIMITS.resetRequest, RATE_LIMITS.resetRequestEmail],
  '/reset-password': [RATE_LIMITS.reset],
  ...Object.fromEntries(TWO_FACTOR_ENDPOINTS.map((step) => [`/two-factor/${step}`, PASSWORD_STEPS.has(step) ? [RATE_LIMITS.twoFactor, RATE_LIMITS.passwordCheck] : [RATE_LIMITS.twoFactor]])),
  '/verify-password': [RATE_LIMITS.passwordCheck],
  '/change-password': [RATE_LIMITS.passwordCheck],
  '/change-email': [RATE_LIMITS.changeEmail, RATE_LIMITS.passwordCheck],
  '/delete-user': [RATE_LIMITS.passwordCheck],
};

/** The per-client rules of an auth endpoint (the per-account ones need its body). */
export const clientRulesOf = (path: string) => (AUTH_ENDPOINT_LIMITS[path] ?? []).filter((rule) => rule.key === 'client');
/** The per-account rule of an auth endpoint, if it has one. */
export const emailRuleOf = (path: string) => (AUTH_ENDPOINT_LIMITS[path] ?? []).find((rule) => rule.key === 'email');
