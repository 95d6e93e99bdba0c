import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppLoadContext } from 'react-router';
import { MESSAGES } from '~/lib/messages';
import { createApi } from './api/index.server';
import { type AppDeps, type AppVariables, resolveUser, serviceContext } from './context.server';
import { compress } from './middleware/compress.server';
import { originCheck } from './middleware/origin-check.server';
import { requestContext } from './middleware/request-context.server';
import { securityHeaders } from './middleware/security-headers.server';

export type PageHandler = (request: Request, context: AppLoadContext) => Promise<Response>;

export interface HttpAppOptions {
  /** React Router's handler; absent in API-only tests. */
  pageHandler?: PageHandler;
  /** Vite serves assets in development; production serves `clientDir` (build/client). */
  dev?: boolean;
  clientDir?: string;
}

/**
 * The whole HTTP surface (BRIEF §4): health probes, /api, static files, then every page through
 * React Router. Kept apart from server/app.ts so tests can build it without a Vite build.
 */
export function createHttpApp(deps: AppDeps, options: HttpAppOptions = {}) {
  const { config, log } = deps;
  const dev = options.dev ?? false;
  const app = new Hono<{ Variables: AppVariables }>();
  app.use(requestContext(log, config.TRUST_PROXY));
  app.use(
    securityHeaders({
      https: config.PUBLIC_URL?.startsWith('https://') ?? false,
      imageOrigins: config.S3_PUBLIC_URL ? [new URL(config.S3_PUBLIC_URL).origin] : [],
      dev,
    }),
  );
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
  app.on(['TRACE', 'TRACK'], '*', (c) => c.json({ message: 'Method not allowed' }, 405));

  app.use(originCheck(config.PUBLIC_URL));
  app.use(async (c, next) => {
    c.set('user', await resolveUser(deps.auth, c.req.raw.headers));
    return next();
  });
  app.route('/api', createApi(deps));
  // Mounted sub-apps do not own their 404s: an unknown /api path must still answer JSON.
  app.all('/api/*', (c) => c.json({ message: MESSAGES.apiNotFound }, 404));

  if (!dev) {
    const root = path.relative(process.cwd(), options.clientDir ?? path.resolve('build/client')) || '.';
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => {
          c.header('Cache-Control', 'public, max-age=31536000, immutable');
        },
      }),
    );
    app.use(
      '*',
      serveStatic({
        root,
        onFound: (_path, c) => {
          c.header('Cache-Control', 'public, max-age=3600');
        },
      }),
    );
  }

  const pageHandler = options.pageHandler;
  app.all('*', async (c) => {
    if (!pageHandler) return c.json({ message: MESSAGES.apiNotFound }, 404);
    const user = c.get('user');
    const requestLog = log.child({ reqId: c.get('requestId') });
    return pageHandler(c.req.raw, {
      deps,
      service: serviceContext(deps, user, requestLog),
      user,
      nonce: c.get('nonce'),
      requestId: c.get('requestId'),
      clientIp: c.get('clientIp'),
    });
  });

  return app;
}

export type HttpApp = ReturnType<typeof createHttpApp>;
