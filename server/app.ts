import { createRequestHandler, type ServerBuild } from 'react-router';
import { ConfigError, loadConfig } from './config.server';
import { type AppDeps, createDeps, StartupError } from './context.server';
import { createHttpApp, type HttpApp } from './http.server';
import { createLogger } from './logger.server';
import { scheduleUploadSweep } from './upload-sweep.server';

export { ConfigError, StartupError };
export { sweepUploads } from './upload-sweep.server';

declare module 'react-router' {
  interface AppLoadContext {
    deps: AppDeps;
    service: import('~/lib/service-context').ServiceContext;
    user: import('~/lib/service-context').SessionUser | null;
    nonce: string;
    requestId: string;
    clientIp: string;
    /** Set by entry.server's handleError, read by the HTTP layer after the page is rendered. */
    failure: { databaseUnavailable: boolean };
  }
}

export interface ServerOptions {
  env?: NodeJS.ProcessEnv;
  dev?: boolean;
  clientDir?: string;
}

export interface AppServer {
  app: HttpApp;
  deps: AppDeps;
  close(): Promise<void>;
}

/**
 * The SSR build's entry (vite.config.ts): parses the environment, opens the database, applies
 * migrations and composes the HTTP app with React Router's handler. server.js listens.
 */
export async function createServer(options: ServerOptions = {}): Promise<AppServer> {
  const config = loadConfig(options.env ?? process.env);
  const log = createLogger(config.LOG_LEVEL);
  const deps = await createDeps(config, log);
  const dev = options.dev ?? false;
  const loadBuild = () => import('virtual:react-router/server-build') as Promise<ServerBuild>;
  // Given a function, React Router derives its routes and static handler again on every request
  // (for development's hot reload): about a tenth of a signed-in page's CPU. Production hands it
  // the build itself, so that is done once.
  const pageHandler = createRequestHandler(dev ? loadBuild : await loadBuild(), dev ? 'development' : 'production');
  const stopSweep = scheduleUploadSweep(deps);
  return {
    app: createHttpApp(deps, { pageHandler, dev, clientDir: options.clientDir }),
    deps,
    async close() {
      stopSweep();
      // server.js calls this on SIGTERM once requests are drained: buffered views are written first.
      await deps.views.close();
      await deps.rateLimits?.close();
      await deps.database.close();
    },
  };
}

/** `npm run db:migrate`: opens the configured database, applies what is pending, closes it. */
export async function migrate(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const config = loadConfig(env);
  const log = createLogger('warn');
  const deps = await createDeps(config, log);
  await deps.database.close();
  return deps.migrationsApplied;
}

/** Opens the configured database with migrations applied, for operator scripts (seeding, backups). */
export async function openDeps(env: NodeJS.ProcessEnv = process.env): Promise<AppDeps> {
  const config = loadConfig(env);
  return createDeps(config, createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL));
}
