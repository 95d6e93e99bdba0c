import { Create, Follow, isActor, Mention, Note, PUBLIC_COLLECTION, Undo } from '@fedify/vocab';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import type { ServiceContext } from '~/lib/core/service-context';
import { federationOf, paragraphs, remoteAuthor } from './federation.server';
import { SUBSCRIBE_REL } from './remote-inbox.server';
import { withRequestDeadline } from './request-deadline.server';

/**
 * The ActivityPub side of following accounts elsewhere (docs/decisions/081): finding an account
 * by its handle or profile address, and a reader's Follow, its Undo and their replies, sent from
 * the reader's own actor. The rules are the service's (remote-following.service.server.ts).
 */

export interface ResolvedAccount {
  uri: string;
  handle: string;
  name: string | null;
  avatarUrl: string | null;
  profileUrl: string | null;
  inbox: string;
  sharedInbox: string | null;
}

const ACTIVITY_TYPES = /^application\/(?:activity\+json|ld\+json)/;

type Site = NonNullable<ReturnType<typeof federationOf>>;

/**
 * What WebFinger says of `user@host`. Fedify asks over https only, as every real server answers;
 * with the test switch for private addresses (never with an https PUBLIC_URL), a loopback peer is
 * asked over http as well.
 */
function webFingerOf(site: Site, ctx: ServiceContext, user: string, host: string) {
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const resource = `acct:${user}@${host}`;
  return withRequestDeadline(site.settings, async () => {
    let jrd = await fctx.lookupWebFinger(resource).catch(() => null);
    if (!jrd && site.settings.allowPrivateAddress) {
      const answer = await fetch(`http://${host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, { headers: { accept: 'application/jrd+json' } }).catch(() => null);
      jrd = answer?.ok ? ((await answer.json().catch(() => null)) as typeof jrd) : null;
    }
    return jrd;
  });
}

/** The actor a WebFinger answer names. */
async function actorUriOfHandle(site: Site, ctx: ServiceContext, user: string, host: string): Promise<string | null> {
  const self = (await webFingerOf(site, ctx, user, host))?.links?.find((l) => l.rel === 'self' && ACTIVITY_TYPES.test(l.type ?? ''))?.href;
  return self && /^https?:\/\//.test(self) ? self : null;
}

/**
 * Where a reader's own server lets them follow `account` (`@name@host`): the subscribe template
 * its WebFinger names for the reader's handle, or, given only the server, the follow page most
 * servers answer (`/authorize_interaction`). Null when their server names no page of its own host.
 */
export async function interactionUrlOf(ctx: ServiceContext, readerServer: string, account: string): Promise<string | null> {
  const site = federationOf(ctx);
  if (!site) return null;
  const handle = /^@?([^@\s/]+)@([^@\s/]+)$/.exec(readerServer);
  const host = (handle?.[2] ?? readerServer.replace(/^https?:\/\//i, '').replace(/\/.*$/, '')).toLowerCase();
  if (!/^[a-z0-9.-]+(?::\d+)?$/.test(host)) return null;
  // Real servers answer https; the test switch stands for peers on loopback, which answer http.
  const scheme = site.settings.allowPrivateAddress ? 'http:' : 'https:';
  const template = handle ? (await webFingerOf(site, ctx, handle[1]!, host))?.links?.find((l) => l.rel === SUBSCRIBE_REL)?.template : `${scheme}//${host}/authorize_interaction?uri={uri}`;
  if (!template?.includes('{uri}')) return null;
  const url = template.replace('{uri}', encodeURIComponent(`acct:${account.replace(/^@/, '')}`));
  // Only to the reader's own server: a WebFinger answer cannot send them anywhere else.
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) && new URL(url).host === host ? url : null;
}

/** The account a reader typed (`@name@host` or a profile address), as we deliver to it; null when none answers. */
export async function resolveRemoteAccount(ctx: ServiceContext, typed: string): Promise<ResolvedAccount | null> {
  const site = federationOf(ctx);
  if (!site) return null;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const handle = /^@?([^@\s/]+)@([^@\s/]+)$/.exec(typed);
  const address = handle ? await actorUriOfHandle(site, ctx, handle[1]!, handle[2]!.toLowerCase()) : typed;
  if (!address) return null;
  const actor = await withRequestDeadline(site.settings, () => fctx.lookupObject(address)).catch(() => null);
  if (!isActor(actor) || !actor.id || !actor.inboxId) return null;
  return { ...(await remoteAuthor(actor)), inbox: actor.inboxId.href, sharedInbox: actor.endpoints?.sharedInbox?.href ?? null };
}

interface Target {
  actorUri: string;
  inbox: string;
  sharedInbox: string | null;
}

const recipientOf = (t: Target) => ({ id: new URL(t.actorUri), inboxId: new URL(t.inbox), endpoints: t.sharedInbox ? { sharedInbox: new URL(t.sharedInbox) } : null });

/** The id a reader's Follow of an account carries (its Accept, Reject and Undo name it). */
export function followUriOf(ctx: ServiceContext, userId: string, followId: string): string | null {
  const site = federationOf(ctx);
  if (!site) return null;
  return new URL(`#follows/${encodeURIComponent(followId)}`, site.federation.createContext(new URL(site.settings.origin), ctx).getActorUri(userId)).href;
}

const followOf = (ctx: ServiceContext, userId: string, followUri: string, target: Target) => {
  const site = federationOf(ctx)!;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  return { fctx, follow: new Follow({ id: new URL(followUri), actor: fctx.getActorUri(userId), object: new URL(target.actorUri) }) };
};

/** Sends the reader's Follow (queued; delivery never holds the request). */
export async function sendFollow(ctx: ServiceContext, userId: string, followUri: string, target: Target): Promise<void> {
  if (!federationOf(ctx)) return;
  const { fctx, follow } = followOf(ctx, userId, followUri, target);
  await fctx.sendActivity({ identifier: userId }, recipientOf(target), follow);
}

/** Sends the Undo of the reader's Follow. */
export async function sendUnfollow(ctx: ServiceContext, userId: string, followUri: string, target: Target): Promise<void> {
  if (!federationOf(ctx)) return;
  const { fctx, follow } = followOf(ctx, userId, followUri, target);
  await fctx.sendActivity({ identifier: userId }, recipientOf(target), new Undo({ id: new URL(`${followUri}/undo`), actor: fctx.getActorUri(userId), object: follow }));
}

/** A reader's reply to a remote post: a public Note in reply to it, to its author, from the reader's actor. */
export async function sendReply(ctx: ServiceContext, reply: { id: string; userId: string; text: string; at: string; inReplyTo: string; author: Target & { handle: string } }): Promise<void> {
  const site = federationOf(ctx);
  if (!site) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const author = new URL(reply.author.actorUri);
  const published = Polyfill.Instant.from(reply.at) as unknown as Temporal.Instant;
  const note = new Note({
    id: new URL(`/ap/notes/${encodeURIComponent(reply.id)}`, site.settings.origin),
    attribution: fctx.getActorUri(reply.userId),
    to: PUBLIC_COLLECTION,
    ccs: [author, fctx.getFollowersUri(reply.userId)],
    replyTarget: new URL(reply.inReplyTo),
    content: paragraphs(reply.text),
    mediaType: 'text/html',
    tags: [new Mention({ href: author, name: reply.author.handle })],
    published,
  });
  const create = new Create({ id: new URL(`${note.id!.href}#create`), actor: note.attributionId, to: PUBLIC_COLLECTION, ccs: note.ccIds, object: note, published });
  await fctx.sendActivity({ identifier: reply.userId }, recipientOf(reply.author), create);
}
