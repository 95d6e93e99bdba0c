import { LRUCache } from 'lru-cache';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { FoundBlog, PageVersions } from './versions';
import { ViewerChanges } from './viewer-writes.server';

/** The channel the version triggers notify (migration 2026-11-30T09-00-00_versions-notify). */
export const VERSIONS_CHANNEL = 'afterglow_versions';
/** Blogs whose revision an instance keeps; one entry is an id, a number and its writer's id (about 200 bytes). */
export const KEPT_REVISIONS = 100_000;
/** Writers whose version an instance keeps (docs/decisions/093): one is an id and a number. */
export const KEPT_WRITERS = 100_000;
const DELETED = -1;
/** A blog's revision (DELETED: gone) and whose version its page follows (null: not said). */
interface KeptBlog {
  revision: number;
  owner: string | null;
}
const RETRY_FIRST_MS = 100;
const RETRY_LAST_MS = 5_000;
/**
 * A connection can die without a word (a cut network): TCP would notice in hours. A round trip
 * every second; one not back by the next stops answers from memory until it is, and one not back
 * in 10 s counts as a lost connection.
 */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_LOST_MS = 10_000;

type Scope = keyof Omit<PageVersions, 'blog' | 'writer'>;

/**
 * PostgreSQL: what one instance knows of the versions without asking (docs/decisions/044). One
 * dedicated connection, outside the pool, LISTENs on the versions channel; the scopes' stripes are
 * read once after LISTEN, blogs' revisions as they are first asked for (through the pool's shared
 * query), and both are kept up to date by the notifications every commit that moves them sends.
 *
 * It answers only while that is sound:
 * - the connection is up, LISTEN was acknowledged and the stripes are loaded. Anything that breaks
 *   the connection forgets everything (notifications may have been missed) until it is back;
 * - no write this instance committed is unaccounted for. After each one, reads ask the database
 *   until a round trip on the listening connection has come back: PostgreSQL sends a session the
 *   notifications of every commit before that point ahead of the round trip's answer, so the
 *   write's own notification is in by then (read-your-writes on the instance that wrote);
 * - the blog asked for is known, with its writer and her version (docs/decisions/093). A blog not
 *   known is asked for once, and what that read answers is kept only if LISTEN was in force
 *   before it was sent.
 * Revisions, writers' versions and stripes only grow, so a notification and a read that race keep
 * the larger value (a blog's writer goes with its larger revision); a deleted blog is kept as
 * deleted until a notification says it exists again.
 */
export class VersionListener {
  /** Moves at every connection and every loss: an answer or notification of an older one is dropped. */
  private generation = 0;
  private client: pg.Client | null = null;
  private listening = false;
  private loaded = false;
  private readonly stripes = new Map<string, number>();
  private readonly sums: Record<Scope, number> = { lists: 0, sessions: 0 };
  private readonly revisions = new LRUCache<string, KeptBlog>({ max: KEPT_REVISIONS });
  private readonly writers = new LRUCache<string, number>({ max: KEPT_WRITERS });
  /** Writes this instance committed, and how many of them a listener round trip has covered. */
  private writes = 0;
  private synced = 0;
  private syncing = false;
  private log: Pick<Logger, 'info' | 'warn'> | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** When the heartbeat still out was sent (null: none out). */
  private heartbeatSentAt: number | null = null;
  private heartbeatLate = false;
  private closed = false;
  /**
   * Writes a signed-in reader's kept page may show (decision 076), from the `w` and `u <user id>`
   * notifications of viewer-writes.server.ts's triggers; moved for everyone whenever what was
   * heard is forgotten (a lost connection may have missed some).
   */
  readonly viewer = new ViewerChanges();

  constructor(private readonly newClient: () => pg.Client) {}

  /** Connects and listens; reconnects with backoff whenever the connection is lost, until `close()`. */
  start(log: Pick<Logger, 'info' | 'warn'>): void {
    this.log = log;
    if (!this.closed && !this.client && !this.retry) void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.stopHeartbeat();
    this.forget();
    this.client = null;
    await client?.end().catch(() => {});
  }

  /** The versions, when this instance knows them for sure; undefined: ask the database. */
  answer(blogId: string | null): PageVersions | undefined {
    if (!this.answering) return undefined;
    const scopes = { lists: this.sums.lists, sessions: this.sums.sessions };
    if (blogId === null) return { ...scopes, blog: null, writer: null };
    const kept = this.revisions.get(blogId);
    if (kept === undefined) return undefined;
    if (kept.revision === DELETED) return { ...scopes, blog: null, writer: null };
    const writer = kept.owner === null ? undefined : this.writers.get(kept.owner);
    if (writer === undefined) return undefined;
    return { ...scopes, blog: kept.revision, writer };
  }

  /** Taken when a read is sent: what it answers may be kept only if LISTEN was in force by then. */
  readToken(): number | null {
    return this.listening ? this.generation : null;
  }

  /** What a read sent under `token` found (blogs not found are not kept: they are asked again). */
  learn(token: number | null, found: Map<string, FoundBlog>): void {
    if (token === null || token !== this.generation || !this.listening) return;
    for (const [id, { blog, owner, writer }] of found) {
      this.noteWriter(owner, writer);
      const known = this.revisions.peek(id);
      if (known?.revision === DELETED) continue;
      if (known === undefined || blog > known.revision) this.revisions.set(id, { revision: blog, owner });
    }
  }

  /** A write this instance made has ended (committed, or perhaps): answer nothing until it is covered. */
  noteWrite(): void {
    this.writes += 1;
    this.sync();
  }

  /** Whether reads are answered from memory now (for tests and logs). */
  get answering(): boolean {
    return this.loaded && this.synced >= this.writes && !this.heartbeatLate;
  }

  /** The listening connection's server process, while connected (for tests that cut it). */
  get backendPid(): number | null {
    return this.listening ? ((this.client as unknown as { processID?: number } | null)?.processID ?? null) : null;
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = this.newClient();
    const generation = ++this.generation;
    this.client = client;
    client.on('notification', (message) => {
      if (this.generation === generation && message.payload) this.receive(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      await client.query(`listen ${VERSIONS_CHANNEL}`);
      if (this.client !== client) return;
      this.listening = true;
      // Writes that ended before this read are in it; those that end later need a round trip.
      const covered = this.writes;
      const { rows } = await client.query<{ scope: string; stripe: number; version: string }>('select scope, stripe, version::text as version from content_version_stripes');
      if (this.client !== client) return;
      for (const row of rows) this.noteStripe(row.scope, row.stripe, Number(row.version));
      this.synced = Math.max(this.synced, covered);
      this.loaded = true;
      if (this.retryMs > RETRY_FIRST_MS) this.log?.info('version listener connected again: kept reads answer from memory');
      this.retryMs = RETRY_FIRST_MS;
      this.startHeartbeat(client);
      this.sync();
    } catch (error) {
      this.lost(client, error as Error);
    }
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client) return;
    this.client = null;
    this.stopHeartbeat();
    this.forget();
    client.end().catch(() => {});
    if (this.closed) return;
    this.log?.warn({ err: error?.message, retryInMs: this.retryMs }, 'version listener lost its connection: kept reads ask the database until it is back');
    this.retry = setTimeout(() => void this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, RETRY_LAST_MS);
  }

  private forget(): void {
    this.generation += 1;
    this.viewer.noteAll();
    this.listening = false;
    this.loaded = false;
    this.stripes.clear();
    this.sums.lists = 0;
    this.sums.sessions = 0;
    this.revisions.clear();
    this.writers.clear();
  }

  /** One round trip at a time on the listening connection, covering the writes ended before it was sent. */
  private sync(): void {
    const client = this.client;
    if (this.syncing || !this.loaded || !client || this.synced >= this.writes) return;
    this.syncing = true;
    const covering = this.writes;
    client.query('select 1').then(
      () => {
        if (this.client === client) this.synced = Math.max(this.synced, covering);
      },
      (error: Error) => this.lost(client, error),
    ).finally(() => {
      this.syncing = false;
      this.sync();
    });
  }

  private startHeartbeat(client: pg.Client): void {
    this.heartbeat = setInterval(() => {
      const sentAt = this.heartbeatSentAt;
      if (sentAt !== null) {
        // Timers run before the loop reads its sockets: after a busy stretch (a loaded machine, a
        // long render) the answer may be waiting unread. Judge once the waiting input is read.
        setImmediate(() => {
          if (this.heartbeatSentAt !== sentAt || this.client !== client) return;
          this.heartbeatLate = true;
          if (performance.now() - sentAt >= HEARTBEAT_LOST_MS) this.lost(client, new Error(`no answer in ${HEARTBEAT_LOST_MS} ms`));
        });
        return;
      }
      const sent = (this.heartbeatSentAt = performance.now());
      client.query('select 1').then(
        () => {
          if (this.heartbeatSentAt !== sent) return;
          this.heartbeatSentAt = null;
          this.heartbeatLate = false;
        },
        (error: Error) => this.lost(client, error),
      );
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.heartbeatSentAt = null;
    this.heartbeatLate = false;
  }

  private receive(payload: string): void {
    const [kind, key, first, second] = payload.split(' ');
    if (kind === 'w') return this.viewer.noteAll();
    if (kind === 'u') return this.viewer.noteUser(key ?? null);
    if (!key) return;
    if (kind === 's' && first !== undefined && second !== undefined) this.noteStripe(key, Number(first), Number(second));
    else if (kind === 'd') this.revisions.set(key, { revision: DELETED, owner: null });
    else if (kind === 'o' && first !== undefined) this.noteWriter(key, Number(first));
    else if (kind === 'b' && first !== undefined) {
      const revision = Number(first);
      const known = this.revisions.peek(key);
      if (known === undefined || known.revision === DELETED || revision > known.revision) this.revisions.set(key, { revision, owner: second ?? null });
    }
  }

  private noteWriter(owner: string, version: number): void {
    const known = this.writers.peek(owner);
    if (known === undefined || version > known) this.writers.set(owner, version);
  }

  private noteStripe(scope: string, stripe: number, version: number): void {
    const key = `${scope} ${stripe}`;
    const known = this.stripes.get(key) ?? 0;
    if (!(version > known)) return;
    this.stripes.set(key, version);
    if (scope === 'lists' || scope === 'sessions') this.sums[scope] += version - known;
  }
}
