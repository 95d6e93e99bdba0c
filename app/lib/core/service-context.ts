import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database, DialectName } from '~/db/schema';
import { AppError } from './errors';
import { MESSAGES } from '~/lib/texts/messages';
import type { RateLimitRule } from './rate-limits';

/** The signed-in user as every layer sees it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
}

/**
 * The spam hold for new accounts (docs/decisions/029): for `days` after sign-up, unless a
 * moderator approved the account, its blogs stay out of what spreads them, and anything of it
 * with more than `maxLinks` links waits for a moderator. `days` 0: no hold.
 */
export interface SpamHold {
  days: number;
  maxLinks: number;
}

/** Where images live: local disk or S3-compatible storage (app/features/images/image-store.server.ts). */
export interface ImageStore {
  /** Stores `body` under `name` and answers its public URL. */
  put(name: string, body: Buffer, contentType: string): Promise<string>;
  /** Removes `name`; removing what is already gone is not an error (several instances may sweep). */
  delete(name: string): Promise<void>;
  /** Every stored object with its last change, for the orphan sweep. */
  list(): AsyncIterable<StoredObject>;
  /** The stored bytes of `name` (a name the pipeline generated), or null when there is none (an export, decision 074). */
  read(name: string): Promise<Buffer | null>;
  /**
   * Private files beside the images, under a `folder/name` key of our own making, never where
   * images are served (exports, decision 092): on disk in DATA_DIR/folder, or in the bucket
   * under `folder/`, so every instance reads what any of them wrote.
   */
  files: FileStore;
}

export interface FileStore {
  /** Takes a finished local file in under `key` (moved on disk, streamed to the bucket) and answers its size. */
  putFile(key: string, file: string, contentType: string): Promise<number>;
  /** The stored file as a stream, with its size; null when there is none. */
  openFile(key: string): Promise<{ size: number; body: Readable } | null>;
  /** Removes `key`; removing what is already gone is not an error. */
  deleteFile(key: string): Promise<void>;
  /** The files under `folder/` (their names are keys), with their last change. */
  listFiles(folder: string): AsyncIterable<StoredObject>;
}

/**
 * How a photo given by its address is brought into the image store (docs/decisions/050): an
 * address under `ownBases` is ours already; any other is fetched once, within these limits.
 */
export interface PhotoFetchPolicy {
  /** Where our own images are answered (`ownImageBases`). */
  ownBases: string[];
  /** The largest body read (MAX_UPLOAD_MB, as for an upload). */
  maxBytes: number;
  /** From the first connection to the last byte, redirects included. */
  timeoutMs: number;
  /**
   * Test-only (IMAGE_FETCH_ALLOW_LOOPBACK): loopback addresses (127.0.0.0/8, ::1) may be reached,
   * so a test can serve a real image from its own process. Private, link-local and every other
   * internal range stay refused.
   */
  allowLoopback: boolean;
}

export interface StoredObject {
  name: string;
  modified: Date;
  /** Bytes it holds. */
  size: number;
}

/**
 * better-auth behind a port (docs/decisions/033): `server/auth.server.ts` is the adapter. Calls
 * are made as the browser would make them, with this request's cookies and client address.
 */
export interface AuthPort {
  /**
   * Calls an account endpoint (a path under /api/auth), counting its rules of
   * `AUTH_ENDPOINT_LIMITS` first (the same counters as /api/auth/*). Answers better-auth's own
   * response; its Set-Cookie is for the caller to forward.
   */
  call(path: string, body: Record<string, unknown>): Promise<Response>;
  /**
   * Ends the caller's session and answers better-auth's response (its Set-Cookie clears the
   * cookie); throws when better-auth failed or the session outlived it.
   */
  signOut(): Promise<Response>;
  /** The token of the caller's current session (what /api/jwt hands out), or null. */
  sessionToken(): Promise<string | null>;
  /** Whether the caller's account asks for a code at sign-in. */
  twoFactorEnabled(): Promise<boolean>;
  /** The social sign-in providers the operator configured. */
  providers(): { id: string; name: string }[];
  /**
   * Makes an account without a password (an imported author): better-auth's own user row, so
   * its hooks make the profile as at sign-up. Works outside a request (a job).
   */
  createPasswordlessAccount(input: { email: string; name: string }): Promise<{ id: string }>;
  /**
   * A link that lets the account's owner choose a password: better-auth's reset token (single
   * use, stored, the account's only one), valid `seconds`, landing on the reset page.
   */
  passwordLink(userId: string, seconds: number): Promise<string>;
}

/**
 * What every use case receives first (docs/decisions/033): the caller, their address,
 * the rate limiter, the clock, the database and the auth port. Tests pass a fresh database and a
 * fixed clock.
 */
export interface ServiceContext {
  db: Kysely<Database>;
  dialect: DialectName;
  user: SessionUser | null;
  log: Logger;
  now: () => Date;
  /** Absent: no hold (a test's context); the server passes SPAM_HOLD_DAYS and SPAM_HOLD_MAX_LINKS. */
  spamHold?: SpamHold;
  /** Where our own pictures live, for rendering a body (`ownImageBases(config)`); absent: `/uploads/`. */
  imageBases?: readonly string[];
  /** The client's address as TRUST_PROXY resolved it ('' outside a request). */
  clientIp: string;
  /** Counts one hit of `rule` for this client (see app/lib/core/rate-limits.ts); over it, throws a 429 AppError. */
  limit(rule: RateLimitRule): Promise<void>;
  /**
   * A per-account rule (key `email`) for `account`: `hit` counts one and answers whether it was
   * allowed; for a failures rule, `check` only looks and `fail` counts one failure. `retryAfter`
   * in seconds.
   */
  limitAccount(rule: RateLimitRule, account: string, mode: 'hit' | 'check' | 'fail'): Promise<{ allowed: boolean; retryAfter: number }>;
  auth: AuthPort;
  images: ImageStore;
  /** Absent (a job's context): a photo given by an address that is not ours is refused, never fetched. */
  photoFetch?: PhotoFetchPolicy;
}

/**
 * The one sign-in check of every use case (docs/decisions/033): the signed-in user, or a 401. Transports
 * check it before reading input too (the API from its declarations, forms with signedOutPost).
 */
export function userOrThrow401(ctx: Pick<ServiceContext, 'user'>): SessionUser {
  if (!ctx.user) throw new AppError('unauthenticated', MESSAGES.authRequired);
  return ctx.user;
}
