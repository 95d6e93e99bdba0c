import { randomUUID } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';

export interface RequestVariables {
  requestId: string;
  clientIp: string;
}

/**
 * The client's address: the socket's, unless the socket is a proxy listed in TRUST_PROXY, in
 * which case the right-most X-Forwarded-For hop that is not itself a trusted proxy.
 */
export function resolveClientIp(remote: string, forwardedFor: string | undefined, trusted: string[]): string {
  const normalise = (ip: string) => ip.trim().replace(/^::ffff:/, '');
  let ip = normalise(remote);
  if (!forwardedFor || !trusted.includes(ip)) return ip;
  const hops = forwardedFor.split(',').map(normalise).filter(Boolean);
  while (hops.length > 0) {
    ip = hops.pop()!;
    if (!trusted.includes(ip)) return ip;
  }
  return ip;
}

function remoteAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The request's id: the one the client sent when it is a plain token, else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return incoming && /^[\w.-]{8,64}$/.test(incoming) ? incoming : randomUUID();
}

/** Request id, client address and one log line per request (never cookies or tokens). */
export function requestContext(log: Logger, trustedProxies: string[]): MiddlewareHandler<{ Variables: RequestVariables }> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', requestId);
    c.set('clientIp', resolveClientIp(remoteAddress(c), c.req.header('x-forwarded-for'), trustedProxies));
    await next();
    // Read again: the page cache gives a kept read an id of the server's own (docs/decisions/019).
    const id = c.get('requestId');
    c.res.headers.set('X-Request-Id', id);
    const status = c.res.status;
    const line = {
      reqId: id,
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    };
    if (status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  };
}
