import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { MiddlewareHandler } from 'hono';
import type { Redis } from 'ioredis';
import { lazy } from '~/lib/page/lazy';
import type { Logger } from 'pino';
import { MESSAGES } from '~/lib/texts/messages';
import { tallies } from '~/lib/render/metrics.server';
import type { RateLimitRule } from '~/lib/core/rate-limits';

/** One counted window: how many hits it has seen and when it ends (epoch ms). */
export interface RateLimitWindow {
  count: number;
  resetAt: number;
}

/** Where the counters live: memory for one instance, Redis when several share the limits. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitWindow>;
  /** The current window of `key` without counting a hit (null: none open). */
  peek(key: string): Promise<RateLimitWindow | null>;
  close(): Promise<void>;
}

export type { RateLimitRule } from '~/lib/core/rate-limits';
/** A rule as the counter sees it (whose counter is the caller's choice). */
type CountedRule = Omit<RateLimitRule, 'key'>;

/**
 * The counter a client address falls in. An IPv6 client usually holds a whole /64 (one
 * customer's prefix, SLAAC privacy addresses), so its 2^64 addresses share one counter.
 */
export function clientRateLimitKey(ip: string): string {
  const address = ip.split('%')[0]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('::');
  const groups = head ? head.split(':') : [];
  if (tail !== undefined) {
    // An embedded IPv4 tail (a.b.c.d) stands for two groups.
    const tailGroups = tail ? tail.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])) : [];
    groups.push(...Array<string>(8 - groups.length - tailGroups.length).fill('0'), ...tailGroups);
  }
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

/** The counter of an account: trimmed, lowercased, hashed so no address sits in Redis. */
export function emailRateLimitKey(email: string): string {
  return `email:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;
}

/** Fixed windows in a Map; expired windows are swept as the map grows. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, RateLimitWindow>();
  private static readonly SWEEP_AT = 10_000;

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, windowMs: number): Promise<RateLimitWindow> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (this.windows.size >= MemoryRateLimitStore.SWEEP_AT) this.sweep(now);
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { ...window };
  }

  async peek(key: string): Promise<RateLimitWindow | null> {
    const window = this.windows.get(key);
    return window && window.resetAt > this.now() ? { ...window } : null;
  }

  private sweep(now: number) {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }

  async close() {
    this.windows.clear();
  }
}

// INCR and the expiry in one step, so every instance sees the same window for a key.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

/** Shared fixed windows in Redis (REDIS_URL), for several app instances behind one site. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: () => Promise<Redis>;
  private connected?: Redis;

  constructor(
    url: string,
    private readonly prefix = 'afterglow:rate:',
  ) {
    // A request must not hang because Redis is away: a short connect timeout and one retry.
    this.redis = lazy(async () => {
      const { Redis } = await import('ioredis');
      const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
      redis.on('error', () => {});
      this.connected = redis;
      return redis;
    });
  }

  async hit(key: string, windowMs: number): Promise<RateLimitWindow> {
    const [count, ttl] = (await (await this.redis()).eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [number, number];
    return { count, resetAt: Date.now() + ttl };
  }

  async peek(key: string): Promise<RateLimitWindow | null> {
    const redis = await this.redis();
    const [count, ttl] = await Promise.all([redis.get(this.prefix + key), redis.pttl(this.prefix + key)]);
    return count === null || ttl <= 0 ? null : { count: Number(count), resetAt: Date.now() + ttl };
  }

  async close() {
    this.connected?.disconnect();
  }
}

/** RATE_LIMITS=off turns limiting off (load tests, or a proxy that limits); else memory or Redis. */
export function createRateLimitStore(config: { RATE_LIMITS: 'on' | 'off'; REDIS_URL?: string; REDIS_PREFIX?: string }): RateLimitStore | null {
  if (config.RATE_LIMITS === 'off') return null;
  return config.REDIS_URL ? new RedisRateLimitStore(config.REDIS_URL, config.REDIS_PREFIX) : new MemoryRateLimitStore();
}

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  retryAfter: number;
}

/** Counts one hit of `rule` for the client address `clientIp` (its /64 for IPv6). */
export function consumeRateLimit(store: RateLimitStore | null, rule: CountedRule, clientIp: string, log?: Logger): Promise<RateLimitResult> {
  return consume(store, rule, clientRateLimitKey(clientIp), log);
}

/** Counts one hit of `rule` for the account `email`, from whichever address. */
export function consumeEmailRateLimit(store: RateLimitStore | null, rule: CountedRule, email: string, log?: Logger): Promise<RateLimitResult> {
  return consume(store, rule, emailRateLimitKey(email), log);
}

/**
 * A store that fails (Redis down) lets the request through and logs: limits protect the site,
 * they must not take sign-in down with them.
 */
async function consume(store: RateLimitStore | null, rule: CountedRule, key: string, log?: Logger): Promise<RateLimitResult> {
  if (!store) return unlimited(rule);
  try {
    const window = await store.hit(`${rule.name}:${key}`, rule.windowMs);
    if (window.count > rule.limit) tallies.rateLimitRefusals.add(rule.name);
    return {
      allowed: window.count <= rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - window.count),
      retryAfter: Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)),
    };
  } catch (error) {
    log?.warn({ err: error, rule: rule.name }, 'rate limit store unavailable; request allowed');
    return unlimited(rule);
  }
}

/**
 * Whether the account `email` may still try under a failures rule (RateLimitRule.counts): the
 * window holds fewer than `limit` failures. Counts nothing; `countFailure` counts one.
 */
export async function checkFailures(store: RateLimitStore | null, rule: CountedRule, email: string, log?: Logger): Promise<RateLimitResult> {
  if (!store) return unlimited(rule);
  try {
    const window = await store.peek(`${rule.name}:${emailRateLimitKey(email)}`);
    const count = window?.count ?? 0;
    return {
      allowed: count < rule.limit,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count),
      retryAfter: window ? Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000)) : 0,
    };
  } catch (error) {
    log?.warn({ err: error, rule: rule.name }, 'rate limit store unavailable; request allowed');
    return unlimited(rule);
  }
}

/** Counts one failure (a wrong password) of the account `email` under a failures rule. */
export async function countFailure(store: RateLimitStore | null, rule: CountedRule, email: string, log?: Logger): Promise<void> {
  await consumeEmailRateLimit(store, rule, email, log);
}

/** Counts one hit of `rule` for whom its `key` names: the client address, or the account `email`. */
export function consumeRule(store: RateLimitStore | null, rule: RateLimitRule, who: { clientIp: string; email?: string }, log?: Logger): Promise<RateLimitResult> {
  if (rule.key === 'email') return who.email === undefined ? Promise.resolve(unlimited(rule)) : consumeEmailRateLimit(store, rule, who.email, log);
  return consumeRateLimit(store, rule, who.clientIp, log);
}

const unlimited = (rule: CountedRule): RateLimitResult => ({ allowed: true, limit: rule.limit, remaining: rule.limit, retryAfter: 0 });

export interface RateLimitOptions extends CountedRule {
  store: RateLimitStore | null;
  log?: Logger;
}

/**
 * Per-client-address limiter for any Hono route: `app.post(path, rateLimit({ store:
 * deps.rateLimits, ...RULE }), handler)`. Over the limit it answers 429 with Retry-After;
 * every answer carries the RateLimit-* headers (IETF draft) so clients can slow down.
 */
export function rateLimit({ store, log, ...rule }: RateLimitOptions): MiddlewareHandler<{ Variables: { clientIp: string } }> {
  return async (c, next) => {
    if (!store) return next();
    const result = await consumeRateLimit(store, rule, c.get('clientIp'), log);
    const headers = rateLimitHeaders(result);
    if (!result.allowed) {
      return c.json({ message: MESSAGES.tooManyRequests, code: 'rate_limited' }, 429, headers);
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  return {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.retryAfter),
    ...(result.allowed ? {} : { 'Retry-After': String(result.retryAfter) }),
  };
}
