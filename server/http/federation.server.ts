import type { MiddlewareHandler } from 'hono';
import { federationOf, type FederationSettings, type SiteFederation } from '~/features/federation/federation-registry.server';
import { withRequestDeadline } from '~/features/federation/request-deadline.server';
import { RATE_LIMITS } from '~/lib/core/rate-limits';
import { RateLimitedError } from '~/lib/core/errors';
import { type AppDeps, type AppEnv, serviceContext } from '../context.server';

/**
 * The Hono side of federation (docs/decisions/068): the ActivityPub paths (actors, inboxes,
 * outboxes, collections, posts), WebFinger, NodeInfo and host-meta go to Fedify before anything
 * else of the site runs; every other request passes on untouched. Off without PUBLIC_URL (ids
 * must be stable) or with FEDERATION=off.
 */

/** The largest activity an inbox reads; a longer body is refused unread. */
export const INBOX_MAX_BYTES = 256 * 1024;

const OURS = /^\/(?:\.well-known\/(?:webfinger|nodeinfo|host-meta(?:\.json)?)$|nodeinfo\/|ap\/)/;

export function federationEnabled(config: AppDeps['config']): boolean {
  return Boolean(config.PUBLIC_URL) && config.FEDERATION === 'on';
}

/**
 * Starts federation for these deps once (its queue listens from then on); null when off. Fedify
 * is loaded here, so a site that does not federate never loads it (docs/decisions/087). Tests may
 * shorten the bound on each request to another server (`testOnly`, docs/decisions/100).
 */
export async function ensureFederation(deps: AppDeps, testOnly: Pick<FederationSettings, 'requestTimeoutMs'> = {}): Promise<SiteFederation | null> {
  const { config } = deps;
  if (!federationEnabled(config)) return null;
  const base = serviceContext(deps, null);
  const { startFederation } = await import('~/features/federation/federation.server');
  return (
    federationOf(base) ??
    startFederation(base, {
      origin: config.PUBLIC_URL!,
      siteName: config.SITE_NAME,
      allowPrivateAddress: config.FEDERATION_ALLOW_PRIVATE === 'on',
      version: process.env.npm_package_version ?? '0.1.0',
      ...testOnly,
    })
  );
}

export function federationRoutes(deps: AppDeps): MiddlewareHandler<AppEnv> {
  // Started as the app is made, as before; a failure to start is thrown by each request it would answer.
  const starting = federationEnabled(deps.config) ? ensureFederation(deps) : null;
  starting?.catch((error: unknown) => deps.log.error({ err: error }, 'federation did not start'));
  const origin = deps.config.PUBLIC_URL ?? '';
  return async (c, next) => {
    if (!starting || !OURS.test(c.req.path)) return next();
    const site = await starting;
    if (!site) return next();
    if (c.req.path.startsWith('/.well-known/host-meta')) return hostMeta(origin, c.req.path.endsWith('.json'));
    const ctx = serviceContext(deps, null, { log: deps.log.child({ reqId: c.get('requestId') }), clientIp: c.get('clientIp'), request: c.req.raw });
    let request = c.req.raw;
    if (request.method === 'POST') {
      try {
        await ctx.limit(RATE_LIMITS.federationInbox);
      } catch (error) {
        if (error instanceof RateLimitedError) return new Response(JSON.stringify({ message: error.message }), { status: 429, headers: { 'content-type': 'application/json', ...error.headers } });
        throw error;
      }
      const body = await readLimited(request, INBOX_MAX_BYTES);
      if (body === null) return new Response(JSON.stringify({ message: 'Activity too large' }), { status: 413, headers: { 'content-type': 'application/json' } });
      request = new Request(request.url, { method: 'POST', headers: request.headers, body });
    }
    // Fedify answers for the public address: behind a proxy the request's own URL may differ.
    const url = new URL(c.req.path + new URL(request.url).search, origin);
    const forwarded = new Request(url, request);
    // What Fedify fetches to answer (the key of an inbox POST's signer) is bounded as its queue's work is (docs/decisions/100).
    return withRequestDeadline(site.settings, () => site.federation.fetch(forwarded, {
      contextData: ctx,
      onNotFound: () => next().then(() => c.res),
      // A browser at one of our ids is sent to the page that shows it (docs/decisions/088).
      onNotAcceptable: async () => {
        const page = request.method === 'GET' || request.method === 'HEAD' ? await (await import('~/features/federation/federation.server')).pageOfId(ctx, url) : null;
        return page ? c.redirect(page, 302) : next().then(() => c.res);
      },
    }));
  };
}

/** The body, or null when it is longer than `max` bytes (read no further than that). */
async function readLimited(request: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > max) return null;
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

/** host-meta (RFC 6415): where WebFinger answers, for the peers that look here first. */
function hostMeta(origin: string, json: boolean): Response {
  const template = `${origin}/.well-known/webfinger?resource={uri}`;
  if (json) return Response.json({ links: [{ rel: 'lrdd', template }] }, { headers: { 'access-control-allow-origin': '*' } });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">\n  <Link rel="lrdd" template="${template}"/>\n</XRD>\n`;
  return new Response(xml, { headers: { 'content-type': 'application/xrd+xml; charset=utf-8', 'access-control-allow-origin': '*' } });
}

