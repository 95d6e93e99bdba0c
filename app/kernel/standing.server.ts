import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { userOrThrow401, type ServiceContext, type SessionUser } from '~/lib/core/service-context';
import * as repo from './standing.repo.server';

/**
 * Account standing, the one check every write passes (docs/decisions/048, 057): signed in, not
 * suspended, not banned from commenting (for comments), and whether the account is still on the
 * spam hold for new accounts (docs/decisions/029). Moderation decides standing; every feature
 * asks it here, so none of them reaches into moderation to write.
 */

/**
 * The rule every write passes (blogs, likes, comments, wishlist, uploads, profile, reports): a
 * suspended account can read but not write. Suspending also ends every session at once; this
 * holds for sessions made afterwards (a suspended user may sign in to read).
 */
export async function assertCanWrite(ctx: ServiceContext): Promise<SessionUser> {
  return (await notSuspended(ctx)).user;
}

/** assertCanWrite, and not banned from commenting. */
export async function assertCanComment(ctx: ServiceContext): Promise<SessionUser> {
  const { user, active } = await notSuspended(ctx);
  if (active.some((r) => r.kind === 'comment_ban')) throw new AppError('forbidden', MESSAGES.commentBanned);
  return user;
}

/**
 * The viewer's suspension in force, for the writing screens to say so before anything is typed
 * (docs/decisions/061); null when signed out or in good standing. The rule itself stays
 * assertCanWrite: this only reads what it would refuse.
 */
export async function getOwnSuspension(ctx: ServiceContext): Promise<Suspension | null> {
  return ctx.user ? suspensionOf(ctx, ctx.user.id) : null;
}

export interface Suspension {
  until: string | null;
  reason: string;
}

/** The suspension of `userId` in force now, if any. */
export async function suspensionOf(ctx: ServiceContext, userId: string): Promise<Suspension | null> {
  const active = await repo.activeRestrictions(ctx.db, userId, ctx.now().toISOString());
  const suspension = active.find((r) => r.kind === 'suspended');
  return suspension ? { until: suspension.until, reason: suspension.reason } : null;
}

async function notSuspended(ctx: ServiceContext) {
  const user = userOrThrow401(ctx);
  const active = await repo.activeRestrictions(ctx.db, user.id, ctx.now().toISOString());
  const suspension = active.find((r) => r.kind === 'suspended');
  if (suspension) throw new AppError('forbidden', MESSAGES.suspended(suspension.until));
  return { user, active };
}

const DAY_MS = 86_400_000;
/** What counts as a link in plain text (titles, comments): an address with a scheme or starting www. */
const LINK = /\b(?:https?:\/\/|www\.)/gi;
/** A link in a rendered, sanitised body: an anchor the reader can follow (a foreign picture is one too). */
const HTML_LINK = /<a\s[^>]*\bhref=/gi;

/**
 * Links in plain texts, and in a Markdown body as it is shown: counted in its rendered, sanitised
 * HTML, so character references (`https&#58;//`), reference links and autolinks count exactly
 * as the reader's browser sees them (docs/decisions/029, 047).
 */
export function countLinks(texts: (string | null | undefined)[], bodyHtml = ''): number {
  return texts.reduce((n, text) => n + (text?.match(LINK)?.length ?? 0), bodyHtml.match(HTML_LINK)?.length ?? 0);
}

/** When the account's hold ends, or null when it is not held (hold off, old enough, or approved). */
export async function holdEnd(ctx: ServiceContext, userId: string): Promise<string | null> {
  const days = ctx.spamHold?.days ?? 0;
  if (days <= 0) return null;
  const account = await repo.findAccountAge(ctx.db, userId);
  // Staff and the site's first account are trusted: the hold is for strangers (docs/decisions/061).
  if (!account || account.approvedAt || account.trusted) return null;
  const end = new Date(account.createdAt.getTime() + days * DAY_MS);
  return end > ctx.now() ? end.toISOString() : null;
}

export interface Hold {
  /** The blog stays out of what spreads it until then (null: not held). */
  heldUntil: string | null;
  /** More than K links from a held account: it waits for a moderator. */
  pending: boolean;
}

/**
 * What new or changed text of a writer whose hold ends at `heldUntil` carries: plain `texts`, and
 * a Markdown body as rendered and sanitised for its page.
 */
export function holdOf(ctx: ServiceContext, heldUntil: string | null, texts: (string | null | undefined)[], bodyHtml?: string): Hold {
  const maxLinks = ctx.spamHold?.maxLinks ?? Number.POSITIVE_INFINITY;
  return { heldUntil, pending: heldUntil !== null && countLinks(texts, bodyHtml) > maxLinks };
}

/** What new or changed plain text of `userId` (a comment) carries. */
export async function holdFor(ctx: ServiceContext, userId: string, texts: (string | null | undefined)[]): Promise<Hold> {
  return holdOf(ctx, await holdEnd(ctx, userId), texts);
}
