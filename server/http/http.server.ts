import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppLoadContext } from 'react-router';
import { isClientAbort, isDatabaseUnavailable } from '~/db/errors.server';
import { MESSAGES } from '~/lib/texts/messages';
import { shownStringsOf } from '~/lib/render/viewer-strings.server';
import { tallies } from '~/lib/render/metrics.server';
import { RETRY_AFTER_SECONDS } from './api/errors.server';
import { serveUploads } from './api/images.api.server';
import { createApi } from './api/index.server';
import { providerPhotoOrigins } from '../auth.server';
import { type AppDeps, type AppEnv, knownUser, resolveUser, serviceContext } from '../context.server';
import { metricsEndpoint, observeRequests, routeLabeler } from '../metrics.server';
import { federationRoutes } from './federation.server';
import { compress } from './middleware/compress.server';
import { legacyPaths } from './middleware/legacy-paths.server';
import { originCheck } from './middleware/origin-check.server';
import { pageBodyLimit } from './middleware/page-body-limit.server';
import { type EarlyRequest, type KeptRead, pageCache } from './middleware/page-cache.server';
import { requestContext } from './middleware/request-context.server';
import { securityHeaders, securityPolicy } from './middleware/security-headers.server';
import { viewerMemo } from './middleware/viewer-memo.server';

export type PageHandler = (request: Request, context: AppLoadContext) => Promise<Response>;

export interface HttpAppOptions {
  /** React Router's handler; absent in API-only tests. */
  pageHandler?: PageHandler;
  /** Vite serves assets in development; production serves `clientDir` (build/client); tests serve none. */
  dev?: boolean;
  clientDir?: string;
  /** The pages' path patterns (metrics.server's pagePatternsOf), to label requests by route. */
  pagePatterns?: string[];
  /** The pages that declare `handle.cache` (page-cache.server's pageReadsOf), kept for anonymous readers. */
  pageReads?: KeptRead[];
}

/**
 * The whole HTTP surface (docs/ARCHITECTURE.md): health probes, /api, static files, then every page through
 * React Router. Kept apart from server/app.ts so tests can build it without a Vite build.
 */
export function createHttpApp(deps: AppDeps, options: HttpAppOptions = {}) {
  const { config, log } = deps;
  const dev = options.dev ?? false;
  const app = new Hono<AppEnv>();
  const files = !dev && options.clientDir ? listFiles(options.clientDir) : new Set<string>();
  const isFile = (p: string) => files.has(p);
  const label = routeLabeler(options.pagePatterns ?? [], isFile);
  app.use(observeRequests(label));
  app.use(requestContext(log, config.TRUST_PROXY));
  const security = {
    https: config.PUBLIC_URL?.startsWith('https://') ?? false,
    // Images in S3 are served from its public URL, or from the endpoint itself when none is set.
    imageOrigins: [
      ...[config.S3_PUBLIC_URL ?? (config.S3_BUCKET ? config.S3_ENDPOINT : undefined)].flatMap((url) => (url ? [new URL(url).origin] : [])),
      ...providerPhotoOrigins(config),
    ],
    dev,
  };
  app.use(securityHeaders(security));
  app.use(compress());

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await deps.database.ping();
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'unavailable', message: 'Database unreachable' }, 503);
    }
  });
  // For the operator's scraper (docs/decisions/052): private addresses only, or a bearer token.
  app.get('/metrics', metricsEndpoint(deps, config.METRICS_TOKEN));
  app.on(['TRACE', 'TRACK'], '*', (c) => c.json({ message: 'Method not allowed' }, 405));

  if (!dev && options.clientDir) {
    // Before the Origin check and the session lookup: files need neither. Only paths that are
    // files of the build are tried, so a page request costs no filesystem lookup.
    const root = path.relative(process.cwd(), options.clientDir) || '.';
    const assets = serveStatic({
      root,
      precompressed: true,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
    const publicFiles = serveStatic({
      root,
      precompressed: true,
      onFound: (_path, c) => {
        c.header('Cache-Control', 'public, max-age=3600');
      },
    });
    app.use('*', (c, next) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      if (!isFile(c.req.path)) return next();
      return c.req.path.startsWith('/assets/') ? assets(c, next) : publicFiles(c, next);
    });
  }

  // Before the session lookup: images need no user, and a page shows many of them.
  app.get('/uploads/:name', serveUploads(deps));
  // Before the Origin check and the session: other servers sign their requests (docs/decisions/068).
  app.use(federationRoutes(deps));

  app.use(originCheck(config.PUBLIC_URL));
  app.use(async (c, next) => {
    c.set('user', await resolveUser(deps, c.req.raw.headers));
    return next();
  });
  // Outside the page cache, so a kept 404 is looked up too: an imported post's old path answers 301.
  app.use(legacyPaths(deps));
  const kept = pageCache(deps, options.pageReads);
  app.use(kept);
  const memo = viewerMemo(deps, options.pageReads);
  app.use(memo);
  app.route('/api', createApi(deps));
  // Mounted sub-apps do not own their 404s: an unknown /api path must still answer JSON.
  app.all('/api/*', (c) => c.json({ message: MESSAGES.apiNotFound }, 404));

  const pageHandler = options.pageHandler;
  app.use('*', pageBodyLimit(config.MAX_UPLOAD_MB));
  app.all('*', async (c) => {
    if (!pageHandler) return c.json({ message: MESSAGES.apiNotFound }, 404);
    const user = c.get('user');
    const requestLog = log.child({ reqId: c.get('requestId') });
    const failure = { databaseUnavailable: false, clientAborted: false };
    const response = await pageHandler(c.req.raw, {
      deps,
      service: serviceContext(deps, user, { log: requestLog, clientIp: c.get('clientIp'), request: c.req.raw }),
      user,
      nonce: c.get('nonce'),
      requestId: c.get('requestId'),
      // A document (not React Router's `.data` answer) for a signed-in viewer is rendered as a
      // template and filled in by entry.server, unless renders are not kept (decision 043).
      ...shownStringsOf(user, c.get('requestId'), deps.renderMemo.enabled && !c.req.path.endsWith('.data')),
      viewerCapture: c.get('viewerCapture'),
      clientIp: c.get('clientIp'),
      formPost: c.req.method !== 'GET' && c.req.method !== 'HEAD',
      failure,
    });
    // A form whose body the client cut off is the client's failure, not a server fault.
    if ((failure.clientAborted || c.req.raw.signal.aborted) && response.status >= 500) return c.json({ message: MESSAGES.bodyCutOff, code: 'body_cut_off' }, 400);
    // A page that failed because the database is away is a 503 (retry), not a 500 (bug): the
    // page helpers answer 503 themselves (app/lib/page/page-errors.server.ts), a loader that does not
    // catch fails with 500 and is told apart here.
    if (response.status === 503 || (response.status === 500 && (failure.databaseUnavailable || !(await databaseReachable(deps))))) {
      if (response.status === 503) requestLog.warn('page answered 503 (unavailable)');
      const headers = new Headers(response.headers);
      headers.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return new Response(response.body, { status: 503, headers });
    }
    return response;
  });

  // Failures outside /api's own mapper (the session lookup, a middleware): JSON, never a stack.
  app.onError((error, c) => {
    if (isClientAbort(error)) return c.json({ message: MESSAGES.bodyCutOff, code: 'body_cut_off' }, 400);
    if (isDatabaseUnavailable(error)) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ message: MESSAGES.unavailable, code: 'unavailable' }, 503);
    }
    log.error({ err: error, reqId: c.get('requestId') }, 'unhandled error');
    return c.json({ message: MESSAGES.serverError, requestId: c.get('requestId') }, 500);
  });

  const policy = securityPolicy(security);
  const policies = new Map<string, string>();
  const fixedHeaders: Record<string, string> = Object.fromEntries(policy.fixed.map(([name, value]) => [name.toLowerCase(), value]));

  /** Writes an answer made before the chain, then counts and logs it as observeRequests and requestContext would. */
  const send = (res: ServerResponse, path: string, started: number, status: number, headers: Record<string, string>, body: Buffer, requestId: string) => {
    Object.assign(headers, fixedHeaders);
    headers['x-request-id'] = requestId;
    headers['cross-origin-opener-policy'] ??= policy.openerPolicy;
    res.writeHead(status, headers);
    res.end(body);
    const ms = performance.now() - started;
    tallies.requests.observe(label('GET', path), status, 'GET', ms / 1000);
    if (log.isLevelEnabled('info')) log.info({ reqId: requestId, method: 'GET', path, status, ms: Math.round(ms * 10) / 10 }, 'request');
  };

  /**
   * A kept page answered in node:http's handler before a Request object, Hono's chain or a Headers
   * object is made, when what the chain would do for it is known in advance: for a reader with no
   * session, the page cache's fresh entry (decision 085); for a signed-in reader whose session is
   * known from memory, the viewer memo's fresh entry (decision 086). Static files, uploads and
   * federation never reach either cache, so a path they hold is none of theirs; the Origin check
   * passes a GET; a kept page is a 200, which the old-address lookup leaves alone. The page cache
   * gives a kept read a request id of the server's own; the viewer memo's answer takes the
   * client's request id as requestContext would. Both are compressed once per entry and sent
   * without a nonce (decision 096). Here the same headers are written (security-headers' policy
   * with the page's script hashes), the request is counted
   * and logged as observeRequests and requestContext would. Answers false when the chain must
   * decide: then nothing was written.
   */
  const answerKept = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (dev || req.method !== 'GET') return false;
    const target = req.url ?? '';
    const host = req.headers.host;
    // Only what @hono/node-server would take as it is, so the caches' keys are the URL it would build.
    if (!host || !PLAIN_HOST.test(host) || !PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return false;
    const started = performance.now();
    const query = target.indexOf('?');
    const path = query === -1 ? target : target.slice(0, query);
    const scheme = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const request: EarlyRequest = {
      url: `${scheme}://${host}${target}`,
      path,
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
    };
    let answer: ReturnType<typeof kept.early>;
    let again: ReturnType<typeof memo.early> = null;
    try {
      answer = kept.early(request);
      if (!answer) {
        again = memo.early(request, () => knownUser(deps, request.header('cookie') ?? '', request.header('authorization') ?? ''));
      }
    } catch {
      // The versions could not be read (SQLite failing): the chain answers, with its 503.
      return false;
    }
    const sent = answer ?? again;
    if (!sent) return false;
    let csp = policies.get(sent.scriptSources);
    if (csp === undefined) {
      if (policies.size >= 1000) policies.clear();
      policies.set(sent.scriptSources, (csp = policy.csp(sent.scriptSources)));
    }
    send(res, path, started, sent.status, { ...sent.headers, 'content-security-policy': csp }, sent.body, again?.requestId ?? randomUUID());
    if (answer) tallies.early.anonymous++;
    else tallies.early.signedIn++;
    return true;
  };

  return Object.assign(app, { answerKept });
}

const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const PLAIN_TARGET = /^\/[\w\-.~!$&'()*+,;=:@/?]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;

export type HttpApp = ReturnType<typeof createHttpApp>;

/** Every file under `dir` as a URL path ('/assets/app-1a2b.css'), compressed twins left out. */
function listFiles(dir: string): Set<string> {
  const files = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.add(`/${path.relative(dir, full).split(path.sep).join('/')}`);
  }
  return files;
}

async function databaseReachable(deps: AppDeps): Promise<boolean> {
  try {
    await deps.database.ping();
    return true;
  } catch {
    return false;
  }
}
