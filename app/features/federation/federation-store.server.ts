import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions, MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from '@fedify/fedify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '~/db/schema';
import { defineJob, enqueueJob } from '~/kernel/jobs.server';
import type { ServiceContext } from '~/lib/core/service-context';
import { deliveryPacer } from './delivery-pacing.server';
import type { FederationSettings } from './federation-registry.server';
import * as repo from './federation.repo.server';
import { isDeliveryBlocked } from './federation.service.server';
import { withRequestDeadline } from './request-deadline.server';

/**
 * Fedify's store and queue on our own database (docs/decisions/068), so federation needs nothing
 * but the database the site already has, on SQLite and PostgreSQL alike.
 *
 * The key-value store is one table; a key is its parts as a JSON array, so a prefix of parts is a
 * prefix of text. The message queue is the job queue (docs/decisions/057): a message is a job of
 * the kind `federation:message`, claimed with a lease, so several instances share it safely and
 * what is queued outlives a restart. Fedify retries a failed delivery itself, with its own
 * backoff, by queueing the message again with a delay.
 */

type Clock = Pick<ServiceContext, 'db' | 'now'>;

const keyText = (key: KvKey) => JSON.stringify(key);
const expiry = (ctx: Clock, options?: KvStoreSetOptions) => (options?.ttl ? new Date(ctx.now().getTime() + options.ttl.total({ unit: 'millisecond' })).toISOString() : null);

export class DatabaseKvStore implements KvStore {
  constructor(private readonly ctx: Clock) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const value = await repo.kvGet(this.ctx.db, keyText(key), this.ctx.now().toISOString());
    return value === undefined ? undefined : (JSON.parse(value) as T);
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    await repo.kvSet(this.ctx.db, keyText(key), JSON.stringify(value), expiry(this.ctx, options));
  }

  async delete(key: KvKey): Promise<void> {
    await repo.kvDelete(this.ctx.db, keyText(key));
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    return repo.kvCompareAndSet(this.ctx.db, {
      key: keyText(key),
      expected: expectedValue === undefined ? undefined : JSON.stringify(expectedValue),
      value: JSON.stringify(newValue),
      expiresAt: expiry(this.ctx, options),
      now: this.ctx.now().toISOString(),
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const exact = prefix ? keyText(prefix) : '';
    const rows = await repo.kvList(this.ctx.db, { exact, prefix: prefix ? `${exact.slice(0, -1)},` : '[', now: this.ctx.now().toISOString() });
    for (const row of rows) yield { key: JSON.parse(row.key) as KvKey, value: JSON.parse(row.value) };
  }
}

type Handler = (message: unknown) => Promise<void> | void;

/** The handler of each database's federation in this process (set by listen). */
const listeners = new WeakMap<Kysely<Database>, Handler>();

/** How many federation messages one worker handles at once. */
export const FEDERATION_CONCURRENCY = 8;

/** This process's deliveries, paced by its readers (docs/decisions/089, 094). Inbox work is never held. */
const pacer = deliveryPacer(FEDERATION_CONCURRENCY);

/** What this queue reads of Fedify's outbox message (a delivery): its activity's type, the inbox and the accounts there. */
const delivery = z.object({ type: z.literal('outbox'), activityType: z.string(), inbox: z.string(), actorIds: z.array(z.string()).optional() });

/** One Fedify message (an activity to send, an inbox item to process, a fan-out) as a job. */
export const FEDERATION_MESSAGE_JOB = defineJob({
  kind: 'federation:message',
  payload: z.object({ message: z.unknown() }),
  // Fedify queues a failed delivery again with its own backoff; this retries only a message no
  // handler took (the federation not started yet in this process).
  maxAttempts: 5,
  retryMs: 5_000,
  // A delivery mostly waits on the other server: one at a time, 500 inboxes answering in 100 ms
  // took 80 s (docs/decisions/082).
  concurrency: FEDERATION_CONCURRENCY,
  run: async (ctx, { message }) => {
    const handler = listeners.get(ctx.db);
    if (!handler) throw new Error('federation is not started in this process');
    const outgoing = delivery.safeParse(message);
    if (!outgoing.success) return void (await handler(message));
    // Queued before a block of where it goes: dropped, unless it takes something back (decision 094).
    if (await isDeliveryBlocked(ctx, outgoing.data)) return void ctx.log.info({ inbox: outgoing.data.inbox, activityType: outgoing.data.activityType }, 'federation: a delivery to a blocked server or account dropped');
    await pacer.run(async () => handler(message));
  },
});

export class JobMessageQueue implements MessageQueue {
  readonly nativeRetrial = false;
  constructor(
    private readonly ctx: Clock,
    private readonly settings: Pick<FederationSettings, 'requestTimeoutMs'> = {},
  ) {}

  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await enqueueJob(this.ctx, FEDERATION_MESSAGE_JOB, { message }, { runAt: this.runAt(options) });
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    const runAt = this.runAt(options);
    await this.ctx.db.transaction().execute(async (db) => {
      for (const message of messages) await enqueueJob({ ...this.ctx, db }, FEDERATION_MESSAGE_JOB, { message }, { runAt });
    });
  }

  listen(handler: Handler, options: MessageQueueListenOptions = {}): Promise<void> {
    // Where Fedify's work starts (a delivery, an inbox item, a fan-out): every request it makes to
    // another server is bounded from here (docs/decisions/100).
    const bounded: Handler = (message) => withRequestDeadline(this.settings, () => handler(message));
    listeners.set(this.ctx.db, bounded);
    pacer.start();
    return new Promise((resolve) => {
      const stop = () => {
        if (listeners.get(this.ctx.db) === bounded) listeners.delete(this.ctx.db);
        resolve();
      };
      if (options.signal?.aborted) stop();
      else options.signal?.addEventListener('abort', stop, { once: true });
    });
  }

  private runAt(options?: MessageQueueEnqueueOptions): Date | undefined {
    const delay = options?.delay?.total({ unit: 'millisecond' }) ?? 0;
    return delay > 0 ? new Date(this.ctx.now().getTime() + delay) : undefined;
  }
}
