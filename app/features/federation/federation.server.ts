import { createFederation, exportJwk, generateCryptoKeyPair, importJwk, type Context } from '@fedify/fedify';
import { Accept, type Actor, Announce, Article, Create, Delete, Endpoints, Flag, Follow, Hashtag, Image, isActor, Like, Mention, Note, Person, PUBLIC_COLLECTION, Reject, Service, Source, Tombstone, Undo, Update, type Recipient } from '@fedify/vocab';
import { blogPathOf } from '~/features/blogs/blog-path';
import { tagsOfRow } from '~/features/blogs/blogs.presenter';
import { tagPath } from '~/features/tags/tag-path';
import { Temporal as Polyfill } from '@js-temporal/polyfill';
import { renderMarkdown } from '~/features/blogs/blogs.service.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { suspensionOf } from '~/kernel/standing.server';
import * as keysRepo from './federation.repo.server';
import type { PostRow } from './federation.repo.server';
import { DatabaseKvStore, JobMessageQueue } from './federation-store.server';
import { deliveryMeterProvider } from './delivery-metrics.server';
import { federationOf, type FederationSettings, registerFederation, type SiteFederation } from './federation-registry.server';
import { followedPostArrived, SUBSCRIBE_REL } from './remote-inbox.server';
import { receiveFollowAccepted, receiveFollowedPostDelete, receiveFollowRejected } from './remote-posts.service.server';
import * as service from './federation.service.server';
import { SITE_ACTOR } from './federation.service.server';
import { receiveRemoteReaction, receiveRemoteReactionUndo } from './reactions.service.server';
import { receiveRemoteFlag } from './flags.service.server';
import { repliesOf } from './replies.service.server';
import { withRequestDeadline } from './request-deadline.server';

/**
 * The site on the fediverse (docs/decisions/068), through Fedify: every writer a Person, the site
 * a Service that announces every public blog, WebFinger, NodeInfo, keys, followers and outboxes,
 * the inbox, and delivery through our own store and queue. What may leave is the service's rule.
 */

export { federationOf, type FederationSettings, type SiteFederation } from './federation-registry.server';

export const PATHS = {
  actor: '/ap/actors/{identifier}',
  inbox: '/ap/actors/{identifier}/inbox',
  sharedInbox: '/ap/inbox',
  outbox: '/ap/actors/{identifier}/outbox',
  followers: '/ap/actors/{identifier}/followers',
  following: '/ap/actors/{identifier}/following',
  article: '/ap/posts/{id}',
  comment: '/ap/comments/{id}',
  replies: '/ap/posts/{id}/replies',
  nodeinfo: '/nodeinfo/2.1',
} as const;

const PAGE = 20;
const absolute = (settings: FederationSettings, url: string | null) => (url ? new URL(url, settings.origin) : null);
// Fedify's types name the standard Temporal, which Node does not have yet: its polyfill stands in.
const instant = (iso: string) => Polyfill.Instant.from(iso) as unknown as Temporal.Instant;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');

/** Builds the federation for this site and starts its queue; `base` is a context with no user. */
export function startFederation(base: ServiceContext, settings: FederationSettings): SiteFederation {
  const federation = createFederation<ServiceContext>({
    kv: new DatabaseKvStore(base),
    queue: new JobMessageQueue(base, settings),
    manuallyStartQueue: true,
    origin: settings.origin,
    allowPrivateAddress: settings.allowPrivateAddress,
    userAgent: { software: `Afterglow/${settings.version}`, url: new URL(settings.origin) },
    // Signatures are always verified; a signature older than an hour is refused (replays).
    skipSignatureVerification: false,
    signatureTimeWindow: { hours: 1 },
    // Deliveries per remote host, for /metrics (docs/decisions/088).
    meterProvider: deliveryMeterProvider(),
  });
  const site: SiteFederation = { federation, settings };

  federation
    .setActorDispatcher(PATHS.actor, async (fctx, identifier) => actorOf(fctx, settings, identifier))
    .setKeyPairsDispatcher(async (fctx, identifier) => keyPairsOf(fctx.data, identifier))
    .mapHandle(async (fctx, username) => {
      const found = await service.identifierOfHandle(fctx.data, username, settings.siteName);
      if (found) return found;
      // Someone who signed up since the last handle round may be asked for already.
      if ((await service.assignMissingHandles(fctx.data, settings.siteName, 50)) === 0) return null;
      return service.identifierOfHandle(fctx.data, username, settings.siteName);
    })
    // A writer's profile address on the site (/@handle) names them too.
    .mapAlias(async (fctx, resource) => {
      if (resource.origin !== new URL(settings.origin).origin) return null;
      const handle = /^\/@([a-z0-9_]+)$/.exec(resource.pathname)?.[1];
      const identifier = handle ? await service.identifierOfHandle(fctx.data, handle, settings.siteName) : null;
      return identifier ? { identifier } : null;
    });

  // Where a reader here follows someone from elsewhere (their server's "follow from your server", docs/decisions/081).
  federation.setWebFingerLinksDispatcher(() => [{ rel: SUBSCRIBE_REL, template: `${settings.origin}/authorize_interaction?uri={uri}` }]);

  federation
    .setFollowersDispatcher(PATHS.followers, async (fctx, identifier, cursor) => {
      // No cursor: every follower at once (what a delivery to "followers" asks for).
      const rows = await service.followersOf(fctx.data, identifier, cursor === null ? { limit: 1_000_000 } : { after: cursor || undefined, limit: PAGE });
      const items: Recipient[] = rows.map((r) => ({ id: new URL(r.actor_uri), inboxId: new URL(r.inbox), endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null }));
      return { items, nextCursor: cursor !== null && rows.length === PAGE ? rows.at(-1)!.id : null };
    })
    .setFirstCursor(() => '')
    .setCounter((fctx, identifier) => service.followerCount(fctx.data, identifier));

  federation.setFollowingDispatcher(PATHS.following, () => ({ items: [] })).setCounter(() => 0);

  federation
    .setOutboxDispatcher(PATHS.outbox, async (fctx, identifier, cursor) => {
      if (cursor === null) return null;
      const posts = await service.outgoingPostsOf(fctx.data, identifier === SITE_ACTOR ? null : identifier, { limit: PAGE, before: cursor || undefined });
      const items = await Promise.all(posts.map(async (post) => (identifier === SITE_ACTOR ? announceOf(fctx, post) : createOf(fctx, settings, post))));
      return { items, nextCursor: posts.length === PAGE ? posts.at(-1)!.created_at : null };
    })
    .setFirstCursor(() => '')
    .setCounter((fctx, identifier) => service.countOutgoingPosts(fctx.data, identifier === SITE_ACTOR ? null : identifier));

  federation.setObjectDispatcher(Article, PATHS.article, async (fctx, { id }) => {
    const post = await service.outgoingPost(fctx.data, id);
    return post ? articleOf(fctx, settings, post) : null;
  });

  // A post's shown comments by their fediverse ids, a page at a time (docs/decisions/080).
  federation
    .setOrderedCollectionDispatcher('replies', Note, PATHS.replies, async (fctx, { id }, cursor) => {
      if (cursor === null) return null;
      const offset = Number(cursor) || 0;
      const page = await repliesOf(fctx.data, id, { offset, limit: PAGE });
      if (!page) return null;
      const items = page.items.map((r) => new Note({ id: r.kind === 'remote' ? new URL(r.uri) : fctx.getObjectUri(Note, { id: r.commentId }) }));
      return { items, nextCursor: page.more ? String(offset + PAGE) : null };
    })
    .setFirstCursor(() => '0');

  // A local comment under a federated post answers at its id only while every reader may see it.
  federation.setObjectDispatcher(Note, PATHS.comment, async (fctx, { id }) => {
    const outgoing = await service.outgoingComment(fctx.data, id);
    return outgoing ? noteOf(fctx, settings, outgoing) : null;
  });

  federation.setNodeInfoDispatcher(PATHS.nodeinfo, async (fctx) => ({
    software: { name: 'afterglow', version: settings.version, homepage: new URL(settings.origin) },
    protocols: ['activitypub'],
    openRegistrations: true,
    usage: { users: { total: await service.countLocalUsers(fctx.data) }, localPosts: await service.countOutgoingPosts(fctx.data, null), localComments: 0 },
    metadata: { nodeName: settings.siteName },
  }));

  federation
    .setInboxListeners(PATHS.inbox, PATHS.sharedInbox)
    .on(Follow, async (fctx, follow) => {
      if (!follow.id || !follow.actorId || !follow.objectId || (await blocked(fctx.data, follow.actorId))) return;
      const target = fctx.parseUri(follow.objectId);
      if (target?.type !== 'actor') return;
      const follower = await follow.getActor(fctx);
      if (!follower?.id || !follower.inboxId || follower.id.href !== follow.actorId.href) return;
      if (target.identifier !== SITE_ACTOR && !(await service.actorProfile(fctx.data, target.identifier, settings.siteName))) return;
      await service.addRemoteFollower(fctx.data, target.identifier, {
        actorUri: follower.id.href,
        handle: `@${follower.preferredUsername ?? 'unknown'}@${follower.id.host}`,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
      });
      await fctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({ id: new URL(`#accept/${encodeURIComponent(follow.id.href)}`, fctx.getActorUri(target.identifier)), actor: fctx.getActorUri(target.identifier), object: follow }),
      );
    })
    .on(Undo, async (fctx, undo) => {
      if (await blocked(fctx.data, undo.actorId)) return;
      // A like or boost taken back is found by its id and its sender: nothing needs fetching.
      if (undo.objectId && undo.actorId && (await receiveRemoteReactionUndo(fctx.data, undo.objectId.href, undo.actorId.href))) return;
      const object = await undo.getObject(fctx);
      if (!(object instanceof Follow) || !undo.actorId || object.actorId?.href !== undo.actorId.href || !object.objectId) return;
      const target = fctx.parseUri(object.objectId);
      if (target?.type === 'actor') await service.removeRemoteFollower(fctx.data, target.identifier, undo.actorId.href);
    })
    // A reply to a post (or to a comment under it) becomes a comment there. The object must come
    // from its sender's own server and name the sender as its author.
    .on(Create, async (fctx, create) => {
      if (await blocked(fctx.data, create.actorId)) return;
      const object = await create.getObject(fctx);
      if (!(object instanceof Note || object instanceof Article) || !object.id || !create.actorId) return;
      if (object.id.origin !== create.actorId.origin || object.attributionId?.href !== create.actorId.href) return;
      // Not a reply: a post of an account someone here follows (docs/decisions/081).
      if (!object.replyTargetId) return void (await followedPostArrived(fctx.data, create.actorId, object, 'create'));
      const author = await create.getActor(fctx);
      if (!author?.id) return;
      await service.receiveRemoteReply(fctx.data, settings.origin, {
        uri: object.id.href,
        inReplyTo: object.replyTargetId.href,
        html: object.content?.toString() ?? '',
        author: await remoteAuthor(author),
      });
    })
    .on(Update, async (fctx, update) => {
      if (await blocked(fctx.data, update.actorId)) return;
      const object = await update.getObject(fctx);
      if (!(object instanceof Note || object instanceof Article) || !object.id || !update.actorId || object.id.origin !== update.actorId.origin) return;
      if (!object.replyTargetId && object.attributionId?.href === update.actorId.href) await followedPostArrived(fctx.data, update.actorId, object, 'update');
      await service.receiveRemoteReplyEdit(fctx.data, object.id.href, update.actorId.href, object.content?.toString() ?? '');
    })
    .on(Delete, async (fctx, remove) => {
      if (await blocked(fctx.data, remove.actorId)) return;
      if (!remove.objectId || !remove.actorId || remove.objectId.origin !== remove.actorId.origin) return;
      await service.receiveRemoteReplyDelete(fctx.data, remove.objectId.href, remove.actorId.href);
      await receiveFollowedPostDelete(fctx.data, remove.objectId.href, remove.actorId.href);
    })
    // The answer to a reader's Follow of an account elsewhere: only that account's counts (docs/decisions/081).
    .on(Accept, async (fctx, accept) => {
      if (!(await blocked(fctx.data, accept.actorId)) && accept.objectId) await receiveFollowAccepted(fctx.data, accept.objectId.href, accept.actorId!.href);
    })
    .on(Reject, async (fctx, reject) => {
      if (!(await blocked(fctx.data, reject.actorId)) && reject.objectId) await receiveFollowRejected(fctx.data, reject.objectId.href, reject.actorId!.href);
    })
    // Likes and boosts of our posts are counted beside the local likes (docs/decisions/080).
    .on(Like, async (fctx, like) => reaction(fctx.data, settings, like, 'like'))
    .on(Announce, async (fctx, announce) => reaction(fctx.data, settings, announce, 'announce'))
    // A report from another server about what is here lands in the moderation queue (docs/decisions/080).
    .on(Flag, async (fctx, flag) => {
      if (!flag.actorId || (await blocked(fctx.data, flag.actorId))) return;
      await receiveRemoteFlag(fctx.data, settings.origin, { actorUri: flag.actorId.href, objects: flag.objectIds.map((o) => o.href), content: flag.content?.toString() ?? '' });
    });

  registerFederation(base.db, site);
  void federation.startQueue(base).catch((error: unknown) => base.log.error({ err: error }, 'federation queue stopped'));
  return site;
}

/**
 * Where a browser asking for one of our fediverse ids (HTML, not ActivityPub) is sent
 * (docs/decisions/088): a writer's actor to her author page, the site's to the home page, a post's
 * Article to the post, a comment's Note to its anchor under the post. Only what the id would
 * answer as ActivityPub is shown: anything else is null (the site's own 404).
 */
export async function pageOfId(ctx: ServiceContext, url: URL): Promise<string | null> {
  const site = federationOf(ctx);
  if (!site) return null;
  const parsed = site.federation.createContext(new URL(site.settings.origin), ctx).parseUri(url);
  if (parsed?.type === 'actor') {
    if (parsed.identifier === SITE_ACTOR) return '/';
    return (await service.actorProfile(ctx, parsed.identifier, site.settings.siteName)) ? `/authors/${encodeURIComponent(parsed.identifier)}` : null;
  }
  if (parsed?.type !== 'object' || !parsed.values.id) return null;
  if (parsed.class === Article) {
    const post = await service.outgoingPost(ctx, parsed.values.id);
    return post ? blogPathOf(post) : null;
  }
  if (parsed.class === Note) {
    const outgoing = await service.outgoingComment(ctx, parsed.values.id);
    return outgoing ? `${blogPathOf(outgoing.post)}#comment-${encodeURIComponent(outgoing.comment.id)}` : null;
  }
  return null;
}

/** A moderator blocked the sender or its server: its activity is dropped unread (docs/decisions/068). */
async function blocked(ctx: ServiceContext, actorId: URL | null): Promise<boolean> {
  return !actorId || service.isRemoteBlocked(ctx, actorId.href);
}

async function reaction(ctx: ServiceContext, settings: FederationSettings, activity: Like | Announce, kind: 'like' | 'announce'): Promise<void> {
  if (!activity.id || !activity.actorId || !activity.objectId || (await blocked(ctx, activity.actorId))) return;
  // The activity's id must be on its sender's own server (it is what a later Undo names).
  if (activity.id.origin !== activity.actorId.origin) return;
  await receiveRemoteReaction(ctx, settings.origin, { id: activity.id.href, actorUri: activity.actorId.href, object: activity.objectId.href, kind });
}

export async function remoteAuthor(actor: Actor): Promise<service.RemoteAuthor> {
  const icon = await actor.getIcon().catch(() => null);
  const iconUrl = icon?.url instanceof URL ? icon.url.href : (icon?.url?.href?.href ?? null);
  const profile = actor.url instanceof URL ? actor.url.href : (actor.url?.href?.href ?? actor.id!.href);
  return {
    uri: actor.id!.href,
    handle: `@${actor.preferredUsername?.toString() ?? 'unknown'}@${actor.id!.host}`,
    name: actor.name?.toString() ?? null,
    avatarUrl: iconUrl && /^https?:/.test(iconUrl) ? iconUrl : null,
    profileUrl: /^https?:/.test(profile) ? profile : null,
  };
}

async function actorOf(fctx: Context<ServiceContext>, settings: FederationSettings, identifier: string) {
  const profile = identifier === SITE_ACTOR ? null : await service.actorProfile(fctx.data, identifier, settings.siteName);
  if (identifier !== SITE_ACTOR && !profile) {
    // A deleted account's actor is gone for good (410), not merely unknown (docs/decisions/088).
    const goneAt = await service.actorGoneAt(fctx.data, identifier);
    return goneAt ? new Tombstone({ id: fctx.getActorUri(identifier), deleted: instant(goneAt) }) : null;
  }
  const keys = await fctx.getActorKeyPairs(identifier);
  const common = {
    id: fctx.getActorUri(identifier),
    inbox: fctx.getInboxUri(identifier),
    outbox: fctx.getOutboxUri(identifier),
    followers: fctx.getFollowersUri(identifier),
    following: fctx.getFollowingUri(identifier),
    endpoints: new Endpoints({ sharedInbox: fctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey,
    assertionMethods: keys.map((k) => k.multikey),
    manuallyApprovesFollowers: false,
    discoverable: true,
    indexable: true,
  };
  if (identifier === SITE_ACTOR) {
    return new Service({
      ...common,
      preferredUsername: service.siteHandle(settings.siteName),
      name: settings.siteName,
      summary: `<p>Every public blog on ${escapeHtml(settings.siteName)}.</p>`,
      url: new URL('/', settings.origin),
    });
  }
  if (!profile) return null;
  const icon = absolute(settings, profile.image);
  return new Person({
    ...common,
    preferredUsername: profile.handle,
    name: profile.name,
    summary: profile.bio ? paragraphs(profile.bio) : null,
    url: new URL(`/authors/${encodeURIComponent(profile.id)}`, settings.origin),
    icon: icon ? new Image({ url: icon }) : null,
  });
}

/**
 * A new RSA pair is 2048 bits, as Mastodon's are, not Fedify's 4096: every delivery signs its
 * request with it, and a 4096-bit signature costs about five times the CPU (docs/decisions/089).
 * Pairs made before stay as they are: a key peers have cached is not changed under them.
 */
const generateRsaKeyPair = () =>
  crypto.subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']);

/** The actor's RSA and Ed25519 key pairs, made once and kept in the database. */
async function keyPairsOf(ctx: ServiceContext, owner: string): Promise<CryptoKeyPair[]> {
  let rows = await keysRepo.findKeys(ctx.db, owner);
  // Only the site and an account that exists get keys: a deleted one's are never made again.
  if (rows.length < 2 && (owner === SITE_ACTOR || (await keysRepo.findActorProfile(ctx.db, owner)))) {
    for (const [algorithm, name] of [['rsa', 'RSASSA-PKCS1-v1_5'], ['ed25519', 'Ed25519']] as const) {
      if (rows.some((r) => r.algorithm === algorithm)) continue;
      const pair = name === 'Ed25519' ? await generateCryptoKeyPair(name) : await generateRsaKeyPair();
      await keysRepo.insertKey(ctx.db, {
        owner,
        algorithm,
        private_jwk: JSON.stringify(await exportJwk(pair.privateKey)),
        public_jwk: JSON.stringify(await exportJwk(pair.publicKey)),
        created_at: ctx.now().toISOString(),
      });
    }
    // Whichever instance stored a pair first, every one uses the stored pair.
    rows = await keysRepo.findKeys(ctx.db, owner);
  }
  return Promise.all(
    rows.map(async (r) => ({ privateKey: await importJwk(JSON.parse(r.private_jwk), 'private'), publicKey: await importJwk(JSON.parse(r.public_jwk), 'public') })),
  );
}

const hashtagOf = (name: string) => name.replace(/[^\p{L}\p{N}_]/gu, '');

/** A post in the long-form shape peers render well (FEP-b2b8). */
export async function articleOf(fctx: Context<ServiceContext>, settings: FederationSettings, post: PostRow): Promise<Article> {
  const html = await renderMarkdown(post.long_description, { imageBases: fctx.data.imageBases });
  // Our own links and images are relative on the site; elsewhere they must name it.
  const content = html.replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${settings.origin}/`);
  const photo = absolute(settings, post.photo);
  const image = photo ? new Image({ url: photo, name: post.title }) : null;
  return new Article({
    id: fctx.getObjectUri(Article, { id: post.id }),
    attribution: fctx.getActorUri(post.owner_id),
    to: PUBLIC_COLLECTION,
    cc: fctx.getFollowersUri(post.owner_id),
    name: post.title,
    summary: paragraphs(post.short_description),
    content,
    mediaType: 'text/html',
    source: new Source({ content: post.long_description, mediaType: 'text/markdown' }),
    image,
    attachments: image ? [image] : [],
    // The category, then the writer's tags (docs/decisions/069): hashtags are letters, digits and
    // underscores, so a tag's hyphens are dropped from its name ("night-sky" → #nightsky).
    tags: [
      new Hashtag({ name: `#${hashtagOf(post.category)}`, href: new URL(`/allblogs?category=${encodeURIComponent(post.category)}`, settings.origin) }),
      ...tagsOfRow(post).map((tag) => new Hashtag({ name: `#${hashtagOf(tag)}`, href: new URL(tagPath(tag), settings.origin) })),
    ],
    url: new URL(blogPathOf(post), settings.origin),
    replies: fctx.getCollectionUri('replies', { id: post.id }),
    published: instant(post.created_at),
    updated: post.updated_at !== post.created_at ? instant(post.updated_at) : null,
  });
}

function createOf(fctx: Context<ServiceContext>, settings: FederationSettings, post: PostRow, article?: Article): Promise<Create> | Create {
  const make = (object: Article) =>
    new Create({ id: new URL(`${object.id!.href}#create`), actor: fctx.getActorUri(post.owner_id), to: PUBLIC_COLLECTION, cc: fctx.getFollowersUri(post.owner_id), object, published: instant(post.created_at) });
  return article ? make(article) : articleOf(fctx, settings, post).then(make);
}

function announceOf(fctx: Context<ServiceContext>, post: PostRow): Announce {
  const object = fctx.getObjectUri(Article, { id: post.id });
  return new Announce({ id: new URL(`${object.href}#announce`), actor: fctx.getActorUri(SITE_ACTOR), to: PUBLIC_COLLECTION, cc: fctx.getFollowersUri(SITE_ACTOR), object, published: instant(post.created_at) });
}

const DELIVERY = { preferSharedInbox: true } as const;

/** A post went public: Create to its writer's followers, and the site announces it to its own. */
export async function deliverPublished(ctx: ServiceContext, blogId: string): Promise<void> {
  const site = federationOf(ctx);
  const post = site && (await service.outgoingPost(ctx, blogId));
  if (!site || !post) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const article = await articleOf(fctx, site.settings, post);
  await fctx.sendActivity({ identifier: post.owner_id }, 'followers', await createOf(fctx, site.settings, post, article), DELIVERY);
  await fctx.sendActivity({ identifier: SITE_ACTOR }, 'followers', announceOf(fctx, post), DELIVERY);
}

/** A post changed: Update, only while it may leave (a Hidden, held or removed post's edits stay here). */
export async function deliverUpdated(ctx: ServiceContext, blogId: string, at: string): Promise<void> {
  const site = federationOf(ctx);
  const post = site && (await service.outgoingPost(ctx, blogId));
  if (!site || !post) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const article = await articleOf(fctx, site.settings, post);
  const update = new Update({ id: new URL(`${article.id!.href}#update/${at}`), actor: fctx.getActorUri(post.owner_id), to: PUBLIC_COLLECTION, cc: fctx.getFollowersUri(post.owner_id), object: article, updated: instant(at) });
  await fctx.sendActivity({ identifier: post.owner_id }, 'followers', update, DELIVERY);
}

/** A post left its readers (hidden, removed, deleted, or its writer suspended): Delete, wherever it went. */
export async function deliverWithdrawn(ctx: ServiceContext, blogId: string, ownerId: string, at: string): Promise<void> {
  const site = federationOf(ctx);
  if (!site) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const object = fctx.getObjectUri(Article, { id: blogId });
  const tombstone = new Tombstone({ id: object, deleted: instant(at) });
  const remove = (actor: string, id: string) => new Delete({ id: new URL(`${object.href}#delete/${id}/${at}`), actor: fctx.getActorUri(actor), to: PUBLIC_COLLECTION, object: tombstone });
  await fctx.sendActivity({ identifier: ownerId }, 'followers', remove(ownerId, 'writer'), DELIVERY);
  await fctx.sendActivity(
    { identifier: SITE_ACTOR },
    'followers',
    new Undo({ id: new URL(`${object.href}#unannounce/${at}`), actor: fctx.getActorUri(SITE_ACTOR), to: PUBLIC_COLLECTION, object: announceOf(fctx, { id: blogId, created_at: at } as PostRow) }),
    DELIVERY,
  );
}

/** A writer's handle moved with her name (docs/decisions/080): her followers get the actor again, same id, new handle. */
export async function deliverActorUpdated(ctx: ServiceContext, userId: string, at: string): Promise<void> {
  const site = federationOf(ctx);
  if (!site || (await suspensionOf(ctx, userId))) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const actor = await actorOf(fctx, site.settings, userId);
  if (!actor) return;
  const update = new Update({ id: new URL(`${actor.id!.href}#update/${at}`), actor: actor.id, to: PUBLIC_COLLECTION, cc: fctx.getFollowersUri(userId), object: actor, updated: instant(at) });
  await fctx.sendActivity({ identifier: userId }, 'followers', update, DELIVERY);
}

/** An account was suspended: every post of it that went out is deleted where it went. */
export async function deliverSuspended(ctx: ServiceContext, userId: string, at: string): Promise<void> {
  if (!federationOf(ctx)) return;
  for (const post of await service.postsToTakeBack(ctx, userId)) await deliverWithdrawn(ctx, post.id, userId, at);
}

/**
 * An account was deleted (docs/decisions/088): once its comments' Deletes are queued, each post of
 * it that went out (noted before the cascade) is deleted where it went, then the actor itself, to
 * its followers' (shared) inboxes; its keys and followers are then dropped, the queued deliveries
 * carrying the keys they sign with, and its id answers 410 Gone.
 */
export async function deliverAccountDeleted(ctx: ServiceContext, userId: string, postIds: readonly string[], at: string): Promise<void> {
  const site = federationOf(ctx);
  if (site) {
    if (await service.commentWithdrawalsWaiting(ctx, userId)) throw new Error('the deleted account\'s comment Deletes are still queued: its keys wait for them');
    for (const postId of postIds) await deliverWithdrawn(ctx, postId, userId, at);
    const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
    const actor = fctx.getActorUri(userId);
    const remove = new Delete({ id: new URL(`${actor.href}#delete/${at}`), actor, to: PUBLIC_COLLECTION, object: actor });
    await fctx.sendActivity({ identifier: userId }, 'followers', remove, DELIVERY);
  }
  await service.forgetActor(ctx, userId, at);
}

/** A local comment as a reply (docs/decisions/068): it answers the post's Article, our comment's Note, or a remote reply's own id. */
export function noteOf(fctx: Context<ServiceContext>, settings: FederationSettings, { comment, post, parent }: service.OutgoingComment): Note {
  const replyTarget = !parent ? fctx.getObjectUri(Article, { id: post.id }) : parent.reply_uri ? new URL(parent.reply_uri) : fctx.getObjectUri(Note, { id: parent.id });
  const mention = parent?.actor_uri ? new URL(parent.actor_uri) : null;
  return new Note({
    id: fctx.getObjectUri(Note, { id: comment.id }),
    attribution: fctx.getActorUri(comment.user_id),
    to: PUBLIC_COLLECTION,
    ccs: [fctx.getFollowersUri(post.owner_id), ...(mention ? [mention] : [])],
    replyTarget,
    content: paragraphs(comment.comment_text),
    mediaType: 'text/html',
    tags: mention ? [new Mention({ href: mention, name: parent!.actor_handle ?? mention.href })] : [],
    url: new URL(`/blogs/${encodeURIComponent(post.id)}/comments/${encodeURIComponent(comment.id)}`, settings.origin),
    published: instant(comment.commented_at),
    updated: comment.edited_at ? instant(comment.edited_at) : null,
  });
}

/** Who hears of a comment under a post: the post writer's followers, and the remote author it answers. */
async function commentAudience(fctx: Context<ServiceContext>, settings: FederationSettings, postOwnerId: string, remoteParent: string | null): Promise<Recipient[]> {
  const rows = await service.followersOf(fctx.data, postOwnerId, { limit: 1_000_000 });
  const recipients: Recipient[] = rows.map((r) => ({ id: new URL(r.actor_uri), inboxId: new URL(r.inbox), endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null }));
  if (remoteParent && !rows.some((r) => r.actor_uri === remoteParent) && !(await service.isRemoteBlocked(fctx.data, remoteParent))) {
    const actor = await withRequestDeadline(settings, () => fctx.lookupObject(remoteParent)).catch(() => null);
    if (isActor(actor) && actor.id?.href === remoteParent && actor.inboxId) recipients.push(actor);
  }
  return recipients;
}

/** Sends what `make` builds of a local comment's Note to its audience, only while the comment may leave. */
async function sendComment(ctx: ServiceContext, commentId: string, make: (note: Note) => Create | Update): Promise<void> {
  const site = federationOf(ctx);
  const outgoing = site && (await service.outgoingComment(ctx, commentId));
  if (!site || !outgoing) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const recipients = await commentAudience(fctx, site.settings, outgoing.post.owner_id, outgoing.parent?.actor_uri ?? null);
  if (recipients.length > 0) await fctx.sendActivity({ identifier: outgoing.comment.user_id }, recipients, make(noteOf(fctx, site.settings, outgoing)), DELIVERY);
}

/** A local comment was shown under a post that went out: Create(Note) as a reply, from its author. */
export function deliverCommentPosted(ctx: ServiceContext, commentId: string, shownAgainAt?: string): Promise<void> {
  // Shown again after a hide: a Create of its own id, which peers have not processed yet.
  const suffix = shownAgainAt ? `/${shownAgainAt}` : '';
  return sendComment(ctx, commentId, (note) => new Create({ id: new URL(`${note.id!.href}#create${suffix}`), actor: note.attributionId, to: PUBLIC_COLLECTION, ccs: note.ccIds, object: note, published: note.published }));
}

/** A local comment that went out was edited: Update(Note), to the same audience. */
export function deliverCommentEdited(ctx: ServiceContext, commentId: string, at: string): Promise<void> {
  return sendComment(ctx, commentId, (note) => new Update({ id: new URL(`${note.id!.href}#update/${at}`), actor: note.attributionId, to: PUBLIC_COLLECTION, ccs: note.ccIds, object: note, updated: instant(at) }));
}

/** A local comment was deleted or hidden: Delete, to whoever its Create went to (while its post still goes out). */
export async function deliverCommentWithdrawn(ctx: ServiceContext, data: { commentId: string; blogId: string; authorId: string; parentId: string | null }, at: string): Promise<void> {
  const site = federationOf(ctx);
  const post = site && (await service.outgoingPost(ctx, data.blogId));
  if (!site || !post) return;
  const fctx = site.federation.createContext(new URL(site.settings.origin), ctx);
  const recipients = await commentAudience(fctx, site.settings, post.owner_id, await service.remoteParentOf(ctx, data.parentId));
  if (recipients.length === 0) return;
  const object = fctx.getObjectUri(Note, { id: data.commentId });
  const remove = new Delete({ id: new URL(`${object.href}#delete/${at}`), actor: fctx.getActorUri(data.authorId), to: PUBLIC_COLLECTION, object: new Tombstone({ id: object, deleted: instant(at) }) });
  await fctx.sendActivity({ identifier: data.authorId }, recipients, remove, DELIVERY);
}
