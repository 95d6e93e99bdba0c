import type { Generated } from 'kysely';

/**
 * Our tables as Kysely sees them after normalisation (see kysely.server.ts): timestamps are
 * ISO-8601 strings and counts are numbers on both SQLite and PostgreSQL.
 * better-auth's own tables (user, session, account, verification) are created and typed by it.
 */
export interface BlogsTable {
  id: string;
  /** The author, shown through the user's id (their profile's current name), never a copy. */
  owner_id: string;
  title: string;
  category: string;
  type: string;
  short_description: string;
  long_description: string;
  details: string | null;
  availability: 'Public' | 'Hidden';
  photo: string | null;
  /** The writer's choice of the photo's focus (one of nine positions); null: Automatic (decision 040). */
  photo_focus: PhotoFocusPosition | null;
  /** The photo's computed focal point in percent, copied from image_focus when the photo is set; null: unknown. */
  photo_focus_x: number | null;
  photo_focus_y: number | null;
  likes: Generated<number>;
  views: Generated<number>;
  /** Moved by triggers whenever what the blog's page shows changes, views aside (decision 024). */
  revision: Generated<number>;
  comments_count: Generated<number>;
  created_at: string;
  updated_at: string;
  /** Hidden by a moderator: shown to its owner only, with the reason (docs/decisions/028). */
  removed_at: string | null;
  removed_reason: string | null;
  /** Written while its author was held for spam: not indexed, listed in feeds or mailed until then (decision 029). */
  held_until: string | null;
  /** More than K links from a held account: shown to its author only until a moderator approves it. */
  pending_since: string | null;
  /** 1: its mails carry a teaser card; 0: the whole post (docs/decisions/066). */
  mail_teaser: Generated<number>;
  /** The post's tag names joined by spaces, kept with blog_tags in one transaction (docs/decisions/069). */
  tags_text: Generated<string>;
  /** The readable part of the post's address, made from its title (docs/decisions/069). */
  slug: Generated<string>;
}

/** A tag: `key` is its lower-case form (unique, the tag page's address), `name` as first written (docs/decisions/069). */
export interface TagsTable {
  id: string;
  key: string;
  name: string;
  created_at: string;
}

/** A post's tags, in the writer's order. */
export interface BlogTagsTable {
  blog_id: string;
  tag_id: string;
  position: number;
}

/** A blog's views per UTC day, fed by the view counter's batch flush (docs/decisions/066). */
export interface BlogViewsDailyTable {
  blog_id: string;
  day: string;
  views: number;
}

/** A post being written, kept on the server as it is typed (docs/decisions/070); any field may be empty. */
export interface BlogDraftsTable {
  id: string;
  owner_id: string;
  /** Set: an edit of this published post (one draft per post); null: a new post. */
  blog_id: string | null;
  title: string | null;
  category: string | null;
  type: string | null;
  short_description: string | null;
  long_description: string | null;
  details: string | null;
  availability: string | null;
  photo: string | null;
  photo_focus: string | null;
  mail: string | null;
  /** The tags as the form's field holds them, comma-separated (docs/decisions/069). */
  tags: string | null;
  /** Set: the job runner publishes it at this time. */
  publish_at: string | null;
  created_at: string;
  updated_at: string;
}

/** What a published post read after one of its saves (docs/decisions/070): the post's own text columns. */
export interface BlogRevisionsTable
  extends Pick<BlogsTable, 'title' | 'category' | 'type' | 'short_description' | 'long_description' | 'details' | 'availability' | 'photo' | 'photo_focus'> {
  id: string;
  blog_id: string;
  mail_teaser: number;
  created_at: string;
}

export type PhotoFocusPosition = 'top-left' | 'top' | 'top-right' | 'left' | 'center' | 'right' | 'bottom-left' | 'bottom' | 'bottom-right';

/** Where an uploaded image's subject is, found once at upload (sharp's attention strategy, decision 040). */
export interface ImageFocusTable {
  /** The id in the image's stored names (`{id}-{width}.webp`). */
  image_id: string;
  focus_x: number;
  focus_y: number;
  created_at: string;
}

export interface CommentsTable {
  id: string;
  blog_id: string;
  /** The commenter, shown through the user's id (current name and photo), never a copy; null: a remote actor wrote it. */
  user_id: string | null;
  /** The remote author (federation); exactly one of user_id and remote_actor_id is set (a CHECK). */
  remote_actor_id: string | null;
  /** The comment this one answers; null: a top-level comment (docs/decisions/060). */
  parent_id: string | null;
  /** The thread's top-level comment (its own id for a top-level one): a thread is one index read. */
  root_id: string;
  /** How far below its root: 0 for a top-level comment. */
  depth: Generated<number>;
  likes: Generated<number>;
  /** The blog's writer pinned it: shown first; one per blog (a partial unique index). */
  pinned_at: string | null;
  /** The blog's writer hid it: gone for others; she and its author see it marked hidden. */
  hidden_at: string | null;
  hidden_by: string | null;
  /** Deleted while replies hang under it: kept as "[deleted]" so the thread stays readable. */
  deleted_at: string | null;
  comment_text: string;
  commented_at: string;
  removed_at: string | null;
  removed_reason: string | null;
  /** Set when its author edits it: shown as "edited". */
  edited_at: string | null;
  /** More than K links from a held account: shown to its author only until a moderator approves it. */
  pending_since: string | null;
}

/** An author from another server (federation); shown by these fields, kept fresh by federation. */
export interface RemoteActorsTable {
  id: string;
  uri: string;
  handle: string;
  name: string | null;
  avatar_url: string | null;
  profile_url: string | null;
  created_at: string;
  updated_at: string;
}

/** A writer's fediverse handle; old ones stay (current 0) and still resolve (docs/decisions/068). */
export interface ActorHandlesTable {
  handle: string;
  user_id: string;
  current: Generated<number>;
  created_at: string;
}

/** An actor's key pair as JWK; `owner` is a user id or `site`. */
export interface ActorKeysTable {
  owner: string;
  algorithm: 'rsa' | 'ed25519';
  private_jwk: string;
  public_jwk: string;
  created_at: string;
}

/** Someone on another server following a local actor (a user id or `site`). */
export interface RemoteFollowersTable {
  id: string;
  local_actor: string;
  actor_uri: string;
  handle: string;
  inbox: string;
  shared_inbox: string | null;
  created_at: string;
}

/** A reply from another server and the comment it became. */
export interface RemoteRepliesTable {
  uri: string;
  comment_id: string;
  actor_uri: string;
  created_at: string;
}

/** A reader here following an account on another server (docs/decisions/081). */
export interface RemoteFollowsTable {
  id: string;
  follower_id: string;
  remote_actor_id: string;
  inbox: string;
  shared_inbox: string | null;
  follow_uri: string;
  state: 'pending' | 'accepted';
  created_at: string;
  accepted_at: string | null;
}

/** A public top-level post of a followed remote account, its HTML sanitised on arrival. */
export interface RemotePostsTable {
  id: string;
  uri: string;
  remote_actor_id: string;
  kind: 'Article' | 'Note';
  title: string | null;
  summary: string | null;
  content: string;
  url: string | null;
  published_at: string;
  updated_at: string | null;
  received_at: string;
}

/** A reader's reply to a remote post, sent from their actor as a Note. */
export interface RemotePostRepliesTable {
  id: string;
  remote_post_id: string;
  user_id: string;
  reply_text: string;
  created_at: string;
}

/** A like or boost of a federated post from another server, by its activity id (docs/decisions/080). */
export interface RemoteReactionsTable {
  id: string;
  blog_id: string;
  actor_uri: string;
  kind: 'like' | 'announce';
  created_at: string;
}

/** A remote account (its actor id) or a whole server (its host) a moderator blocked. */
export interface FederationBlocksTable {
  id: string;
  kind: 'account' | 'instance';
  target: string;
  reason: string;
  created_by: string | null;
  created_at: string;
}

/** The federation library's key-value store; `key` is its key parts as a JSON array. */
export interface FedifyKvTable {
  key: string;
  value: string;
  expires_at: string | null;
}

/** One like per user and comment; comments.likes counts them. */
export interface CommentLikesTable {
  comment_id: string;
  user_id: string;
  created_at: string;
}

export interface LikesTable {
  blog_id: string;
  user_id: string;
  user_email: string;
  created_at: string;
}

export interface WishlistTable {
  id: string;
  user_id: string;
  email: string;
  blog_id: string;
  title: string;
  photo: string | null;
  category: string;
  description: string;
  like_count: number | null;
  created_at: string;
}

export type MailDelivery = 'post' | 'digest';

export interface SubscribersTable {
  id: string;
  email: string;
  created_at: string;
  /** Null until the address confirmed (double opt-in); only confirmed addresses get mail. */
  confirmed_at: string | null;
  delivery: Generated<MailDelivery>;
  /** The platform an import brought the address from (`substack`, `ghost`, …); null for a sign-up here. */
  imported_from: string | null;
  /** Who imported it: their confirmation mail tells that this writer moved the newsletter (docs/decisions/090). */
  imported_by: string | null;
  /**
   * The old site's name when an admin's whole-site import brought it (its title, or its host; ''
   * when the archive names neither): its mail says that site moved, not the admin (docs/decisions/095).
   */
  imported_site: string | null;
}

export interface FollowsTable {
  follower_id: string;
  writer_id: string;
  delivery: Generated<MailDelivery>;
  created_at: string;
}

export type MailKind = 'post' | 'digest' | 'confirm' | 'notice' | 'notice_digest';
export type MailStream = 'newsletter' | 'follow' | 'confirm' | 'notice';
export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'bounced';

export interface MailMessagesTable {
  id: string;
  kind: MailKind;
  key: string;
  blog_id: string | null;
  period_start: string | null;
  period_end: string | null;
  created_at: string;
  /** The notification a `notice` mail tells of (docs/decisions/062). */
  notification_id: string | null;
}

/** The send queue: one row per message and recipient (docs/decisions/023). */
export interface MailQueueTable {
  id: string;
  message_id: string;
  email: string;
  stream: MailStream;
  /** What the recipient's unsubscribe link ends: a subscriber id, or `follower:writer`. */
  ref: string;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
  claimed_by: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'dead';

/** One piece of background work (app/kernel/jobs.server.ts, docs/decisions/057). */
export interface JobsTable {
  id: string;
  kind: string;
  /** The payload as JSON text, checked by the kind's schema when it runs. */
  payload: string;
  /** Unique when set: enqueueing the same key again does nothing. */
  key: string | null;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  claimed_by: string | null;
  last_error: string | null;
  finished_at: string | null;
  created_at: string;
}

export interface MailBouncesTable {
  email: string;
  reason: string;
  created_at: string;
}

export interface ProfilesTable {
  user_id: string;
  email: string;
  name: string | null;
  photo: string | null;
  uid: string | null;
  last_login_at: string | null;
  updated_at: string;
  /** The person's own words and links (docs/decisions/067); `links` is a JSON array of addresses. */
  bio: string | null;
  website: string | null;
  links: string | null;
  /** 0: the writer keeps her view counts to herself; 1 (the default): shown to everyone (docs/decisions/069). */
  show_views: number;
}

/** The subset of better-auth's user table our queries read. */
export interface AuthUserTable {
  id: string;
  name: string;
  email: string;
  image: string | null;
  /** better-auth's flag: 0/1 on SQLite, a boolean on PostgreSQL. */
  emailVerified: boolean | number;
}

/** The subset of better-auth's account table (one row per way of signing in) our queries read. */
export interface AuthAccountTable {
  id: string;
  userId: string;
  /** 'credential' for the password; a provider's id otherwise. */
  providerId: string;
  /** When the row last changed: for 'credential', when the password was last set. */
  updatedAt: string;
}

/** The subset of better-auth's verification table (mailed links' tokens) our queries read. */
export interface AuthVerificationTable {
  id: string;
  /** What the token is for and the token: 'reset-password:<token>' for a reset link. */
  identifier: string;
  /** Whom it is for: a reset link's user id. */
  value: string;
}

/** The subset of better-auth's passkey table (one row per passkey of an account, docs/decisions/075) our queries read. */
export interface AuthPasskeyTable {
  id: string;
  userId: string;
  /** What the person or their authenticator called it; may be absent. */
  name: string | null;
  createdAt: string | null;
}

export type Role = 'admin' | 'moderator';
export type ReportTargetType = 'blog' | 'comment' | 'user';

/** Admins and moderators; everyone else signed in is a writer and has no row. */
export interface UserRolesTable {
  user_id: string;
  role: Role;
  granted_by: string | null;
  granted_at: string;
}

/** Every moderation action (actor null: the operator's command line). */
export interface ModerationLogTable {
  id: string;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  reason: string;
  created_at: string;
}

export interface ReportsTable {
  id: string;
  /** A local reporter, or null for a report from another server (docs/decisions/080). */
  reporter_id: string | null;
  /** The remote actor that sent a `Flag`; null for a local reporter's report. */
  remote_actor_uri: string | null;
  target_type: ReportTargetType;
  target_id: string;
  reason: string;
  details: string | null;
  /** JSON: what the target showed when it was reported. */
  snapshot: string;
  status: Generated<'open' | 'dismissed' | 'resolved'>;
  created_at: string;
  resolved_at: string | null;
  resolved_by: string | null;
}

/** A suspension (`until` null: for good) or a comment ban; one of each per user at most. */
export interface UserRestrictionsTable {
  user_id: string;
  kind: 'suspended' | 'comment_ban';
  until: string | null;
  reason: string;
  created_by: string | null;
  created_at: string;
}

/** A moderator approved the account: its spam hold is over (decision 029). */
export interface AccountApprovalsTable {
  user_id: string;
  approved_by: string | null;
  approved_at: string;
  reason: string;
}

export type NotificationKind = 'comment' | 'reply' | 'like_post' | 'like_comment' | 'follow' | 'moderation';
export type NotificationDelivery = 'instant' | 'digest' | 'off';

/** One row per recipient and group of like events (docs/decisions/062). */
export interface NotificationsTable {
  id: string;
  recipient_id: string;
  kind: NotificationKind;
  group_key: string;
  blog_id: string | null;
  comment_id: string | null;
  /** The latest person in the group; null once their account is gone. */
  actor_id: string | null;
  /** Distinct people in the group. */
  actor_count: Generated<number>;
  /** A moderation decision's action and reason. */
  detail: string | null;
  created_at: string;
  updated_at: string;
  read_at: string | null;
}

export interface NotificationActorsTable {
  notification_id: string;
  actor_id: string;
  created_at: string;
}

export interface NotificationSettingsTable {
  user_id: string;
  kind: NotificationKind;
  delivery: NotificationDelivery;
}

/** One import (docs/decisions/072): its owner, progress and report. */
export type ImportRunStatus = 'scanning' | 'review' | 'queued' | 'running' | 'done' | 'failed';
export interface ImportRunsTable {
  id: string;
  owner_id: string;
  file_name: string;
  /** Where the uploaded archive waits in the data folder (removed when the run ends). */
  file_path: string;
  /** JSON: the import's choices (category mapping, authors mapping, consent). */
  options: string;
  status: Generated<ImportRunStatus>;
  source: string | null;
  total_items: Generated<number>;
  done_items: Generated<number>;
  /** JSON: the report (what came, what was skipped and why). */
  report: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Which account a source author became in a site import (docs/decisions/083): the same author maps to the same account again. */
export interface ImportAuthorsTable {
  source: string;
  source_id: string;
  user_id: string;
  /** `new`: the import made the account (and mailed its owner a link to set a password); `existing`: it was here. */
  made: 'new' | 'existing';
  run_id: string | null;
  created_at: string;
}

/** A run's posts and subscribers as its scan read them, written part by part (docs/decisions/091). */
export interface ImportStagingTable {
  run_id: string;
  /** The item's place in the bundle: posts first, then subscribers, then followed accounts (what `done_items` counts). */
  position: number;
  kind: 'post' | 'subscriber' | 'follow';
  /** JSON: the reader's ImportPost, ImportSubscriber or ImportRemoteFollow. */
  body: string;
}

/** What a source item became: importing it again finds it here and changes nothing. */
export interface ImportItemsTable {
  source: string;
  kind: 'post' | 'comment' | 'image' | 'subscriber';
  source_id: string;
  target_id: string;
  run_id: string | null;
  created_at: string;
}

/** An imported post's old path, answered with a 301 to its page. */
export interface LegacyPathsTable {
  path: string;
  blog_id: string;
  created_at: string;
}

export type ExportScope = 'writer' | 'site';
export type ExportStatus = 'pending' | 'ready' | 'failed';
/** A zip someone asked for, made in the background and kept until `expires_at` (docs/decisions/074). */
export interface ExportsTable {
  id: string;
  /** Who asked, and the only one who may download it. */
  user_id: string;
  scope: ExportScope;
  status: Generated<ExportStatus>;
  size_bytes: number | null;
  error: string | null;
  created_at: string;
  finished_at: string | null;
  expires_at: string;
  /** The mail with its link went out. */
  mailed_at: string | null;
}

export interface Database {
  blogs: BlogsTable;
  comments: CommentsTable;
  remote_actors: RemoteActorsTable;
  comment_likes: CommentLikesTable;
  likes: LikesTable;
  wishlist: WishlistTable;
  subscribers: SubscribersTable;
  profiles: ProfilesTable;
  user: AuthUserTable;
  account: AuthAccountTable;
  verification: AuthVerificationTable;
  passkey: AuthPasskeyTable;
  content_version_stripes: ContentVersionStripesTable;
  writer_versions: WriterVersionsTable;
  follows: FollowsTable;
  blog_views_daily: BlogViewsDailyTable;
  mail_messages: MailMessagesTable;
  mail_queue: MailQueueTable;
  mail_bounces: MailBouncesTable;
  user_roles: UserRolesTable;
  moderation_log: ModerationLogTable;
  reports: ReportsTable;
  user_restrictions: UserRestrictionsTable;
  account_approvals: AccountApprovalsTable;
  image_focus: ImageFocusTable;
  jobs: JobsTable;
  notifications: NotificationsTable;
  notification_actors: NotificationActorsTable;
  notification_settings: NotificationSettingsTable;
  blog_drafts: BlogDraftsTable;
  blog_revisions: BlogRevisionsTable;
  tags: TagsTable;
  blog_tags: BlogTagsTable;
  import_runs: ImportRunsTable;
  import_items: ImportItemsTable;
  import_authors: ImportAuthorsTable;
  import_staging: ImportStagingTable;
  legacy_paths: LegacyPathsTable;
  exports: ExportsTable;
  actor_handles: ActorHandlesTable;
  actor_keys: ActorKeysTable;
  remote_followers: RemoteFollowersTable;
  remote_replies: RemoteRepliesTable;
  federation_blocks: FederationBlocksTable;
  fedify_kv: FedifyKvTable;
  remote_follows: RemoteFollowsTable;
  remote_posts: RemotePostsTable;
  remote_post_replies: RemotePostRepliesTable;
  remote_reactions: RemoteReactionsTable;
}

/**
 * Counters the database's triggers bump when what pages show or who is signed in changes; a
 * scope's version is the sum of its stripes (migration 2026-11-25T10-00-00).
 */
export interface ContentVersionStripesTable {
  scope: 'lists' | 'sessions';
  stripe: number;
  version: number;
}

/**
 * Each writer's version: moved when one of her posts comes, goes or changes what the end of her
 * other posts shows of it (docs/decisions/093). No row: version 0. Kept when the writer's account
 * goes (no foreign key: her posts' deletes bump it while the account is being deleted).
 */
export interface WriterVersionsTable {
  owner_id: string;
  version: number;
}

export type DialectName = 'sqlite' | 'postgres';

/**
 * The columns each table must have after migrating, checked on both dialects by
 * app/db/schema.test.ts. The `satisfies` clause and ExactColumns keep this list and the types
 * above from drifting apart.
 */
type ExactColumns<T> = { [K in keyof T]-?: K }[keyof T][];
export const TABLE_COLUMNS = {
  blogs: ['id', 'owner_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo', 'photo_focus', 'photo_focus_x', 'photo_focus_y', 'likes', 'views', 'revision', 'comments_count', 'created_at', 'updated_at', 'removed_at', 'removed_reason', 'held_until', 'pending_since', 'mail_teaser', 'tags_text', 'slug'],
  comments: ['id', 'blog_id', 'user_id', 'remote_actor_id', 'parent_id', 'root_id', 'depth', 'likes', 'pinned_at', 'hidden_at', 'hidden_by', 'deleted_at', 'comment_text', 'commented_at', 'removed_at', 'removed_reason', 'edited_at', 'pending_since'],
  remote_actors: ['id', 'uri', 'handle', 'name', 'avatar_url', 'profile_url', 'created_at', 'updated_at'],
  comment_likes: ['comment_id', 'user_id', 'created_at'],
  likes: ['blog_id', 'user_id', 'user_email', 'created_at'],
  wishlist: ['id', 'user_id', 'email', 'blog_id', 'title', 'photo', 'category', 'description', 'like_count', 'created_at'],
  subscribers: ['id', 'email', 'created_at', 'confirmed_at', 'delivery', 'imported_from', 'imported_by', 'imported_site'],
  profiles: ['user_id', 'email', 'name', 'photo', 'uid', 'last_login_at', 'updated_at', 'bio', 'website', 'links', 'show_views'],
  user: ['id', 'name', 'email', 'image', 'emailVerified'],
  account: ['id', 'userId', 'providerId', 'updatedAt'],
  verification: ['id', 'identifier', 'value'],
  passkey: ['id', 'userId', 'name', 'createdAt'],
  content_version_stripes: ['scope', 'stripe', 'version'],
  writer_versions: ['owner_id', 'version'],
  follows: ['follower_id', 'writer_id', 'delivery', 'created_at'],
  mail_messages: ['id', 'kind', 'key', 'blog_id', 'period_start', 'period_end', 'created_at', 'notification_id'],
  mail_queue: ['id', 'message_id', 'email', 'stream', 'ref', 'status', 'attempts', 'next_attempt_at', 'claimed_until', 'claimed_by', 'last_error', 'sent_at', 'created_at'],
  mail_bounces: ['email', 'reason', 'created_at'],
  user_roles: ['user_id', 'role', 'granted_by', 'granted_at'],
  moderation_log: ['id', 'actor_id', 'action', 'target_type', 'target_id', 'reason', 'created_at'],
  reports: ['id', 'reporter_id', 'remote_actor_uri', 'target_type', 'target_id', 'reason', 'details', 'snapshot', 'status', 'created_at', 'resolved_at', 'resolved_by'],
  user_restrictions: ['user_id', 'kind', 'until', 'reason', 'created_by', 'created_at'],
  account_approvals: ['user_id', 'approved_by', 'approved_at', 'reason'],
  blog_views_daily: ['blog_id', 'day', 'views'],
  image_focus: ['image_id', 'focus_x', 'focus_y', 'created_at'],
  jobs: ['id', 'kind', 'payload', 'key', 'status', 'attempts', 'run_at', 'locked_until', 'claimed_by', 'last_error', 'finished_at', 'created_at'],
  notifications: ['id', 'recipient_id', 'kind', 'group_key', 'blog_id', 'comment_id', 'actor_id', 'actor_count', 'detail', 'created_at', 'updated_at', 'read_at'],
  notification_actors: ['notification_id', 'actor_id', 'created_at'],
  notification_settings: ['user_id', 'kind', 'delivery'],
  blog_drafts: ['id', 'owner_id', 'blog_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo', 'photo_focus', 'mail', 'tags', 'publish_at', 'created_at', 'updated_at'],
  blog_revisions: ['id', 'blog_id', 'title', 'category', 'type', 'short_description', 'long_description', 'details', 'availability', 'photo', 'photo_focus', 'mail_teaser', 'created_at'],
  tags: ['id', 'key', 'name', 'created_at'],
  blog_tags: ['blog_id', 'tag_id', 'position'],
  import_runs: ['id', 'owner_id', 'file_name', 'file_path', 'options', 'status', 'source', 'total_items', 'done_items', 'report', 'created_at', 'updated_at', 'finished_at'],
  import_items: ['source', 'kind', 'source_id', 'target_id', 'run_id', 'created_at'],
  import_authors: ['source', 'source_id', 'user_id', 'made', 'run_id', 'created_at'],
  import_staging: ['run_id', 'position', 'kind', 'body'],
  legacy_paths: ['path', 'blog_id', 'created_at'],
  exports: ['id', 'user_id', 'scope', 'status', 'size_bytes', 'error', 'created_at', 'finished_at', 'expires_at', 'mailed_at'],
  actor_handles: ['handle', 'user_id', 'current', 'created_at'],
  actor_keys: ['owner', 'algorithm', 'private_jwk', 'public_jwk', 'created_at'],
  remote_followers: ['id', 'local_actor', 'actor_uri', 'handle', 'inbox', 'shared_inbox', 'created_at'],
  remote_replies: ['uri', 'comment_id', 'actor_uri', 'created_at'],
  federation_blocks: ['id', 'kind', 'target', 'reason', 'created_by', 'created_at'],
  fedify_kv: ['key', 'value', 'expires_at'],
  remote_follows: ['id', 'follower_id', 'remote_actor_id', 'inbox', 'shared_inbox', 'follow_uri', 'state', 'created_at', 'accepted_at'],
  remote_posts: ['id', 'uri', 'remote_actor_id', 'kind', 'title', 'summary', 'content', 'url', 'published_at', 'updated_at', 'received_at'],
  remote_post_replies: ['id', 'remote_post_id', 'user_id', 'reply_text', 'created_at'],
  remote_reactions: ['id', 'blog_id', 'actor_uri', 'kind', 'created_at'],
} satisfies { [T in keyof Database]: ExactColumns<Database[T]> };

/**
 * Columns one dialect has and the table types leave out on purpose: PostgreSQL's full-text
 * vector (SQLite keeps its index in the blogs_fts table instead). Only raw search SQL reads it.
 */
export const DIALECT_ONLY_COLUMNS: Record<DialectName, Partial<Record<keyof Database, string[]>>> = {
  sqlite: {},
  postgres: { blogs: ['search_vector'] },
};

type AssertAll<T, Listed> = Exclude<keyof T, Listed> extends never ? true : never;
export const COLUMNS_COMPLETE: { [T in keyof Database]: AssertAll<Database[T], (typeof TABLE_COLUMNS)[T][number]> } = {
  blogs: true,
  comments: true,
  remote_actors: true,
  comment_likes: true,
  likes: true,
  wishlist: true,
  subscribers: true,
  profiles: true,
  user: true,
  account: true,
  verification: true,
  passkey: true,
  content_version_stripes: true,
  writer_versions: true,
  follows: true,
  mail_messages: true,
  mail_queue: true,
  mail_bounces: true,
  user_roles: true,
  moderation_log: true,
  reports: true,
  user_restrictions: true,
  account_approvals: true,
  image_focus: true,
  blog_views_daily: true,
  jobs: true,
  notifications: true,
  notification_actors: true,
  notification_settings: true,
  blog_drafts: true,
  blog_revisions: true,
  tags: true,
  blog_tags: true,
  import_runs: true,
  import_items: true,
  import_authors: true,
  import_staging: true,
  legacy_paths: true,
  exports: true,
  actor_handles: true,
  actor_keys: true,
  remote_followers: true,
  remote_replies: true,
  federation_blocks: true,
  fedify_kv: true,
  remote_follows: true,
  remote_posts: true,
  remote_post_replies: true,
  remote_reactions: true,
};
