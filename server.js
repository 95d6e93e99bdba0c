// The process entry: loads the built server (or Vite's dev server with --dev), listens, and
// drains in-flight requests on SIGTERM/SIGINT. Plain JavaScript so it runs without a build step.
import { createServer as createHttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { getRequestListener } from '@hono/node-server';

const dev = process.argv.includes('--dev');
// React picks its development or production build from NODE_ENV when first imported (below, with
// the server build): unset, `npm start` would serve React's slow development build.
process.env.NODE_ENV ??= dev ? 'development' : 'production';

function fail(message) {
  console.error(`afterglow: ${message}`);
  process.exit(1);
}

let vite;
let mod;
if (dev) {
  const { createServer: createViteServer } = await import('vite');
  vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' });
  mod = await vite.ssrLoadModule('./server/app.ts');
} else {
  try {
    mod = await import('./build/server/index.js');
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('build/server'))
      fail('no build found: run `npm run build` (npm start does it for you)');
    throw error;
  }
}

let instance;
try {
  instance = await mod.createServer({ dev, clientDir: fileURLToPath(new URL('./build/client', import.meta.url)) });
} catch (error) {
  if (error?.name === 'ConfigError' || error?.name === 'StartupError') fail(error.message);
  throw error;
}

const { config, log } = instance.deps;
const hono = getRequestListener(instance.app.fetch);
// A kept page for a reader with no session is answered before Hono's chain (docs/decisions/085).
const listener = (req, res) => {
  if (!instance.app.answerKept(req, res)) return hono(req, res);
};
const server = createHttpServer(
  { keepAliveTimeout: 65_000, headersTimeout: 30_000, requestTimeout: 120_000 },
  dev ? (req, res) => vite.middlewares(req, res, () => hono(req, res)) : listener,
);

server.on('error', (error) => {
  if (error.code === 'EADDRINUSE') fail(`PORT ${config.PORT} is already in use on ${config.HOST}`);
  if (error.code === 'EACCES') fail(`PORT ${config.PORT} needs privileges this process does not have`);
  fail(error.message);
});

server.listen(config.PORT, config.HOST, () => {
  const { port } = server.address();
  const shown = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
  log.info({ port, database: instance.deps.database.dialect, node: process.version }, `Afterglow listening on http://${shown}:${port}`);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => {
    log.warn('in-flight requests did not finish in 10 s; closing anyway');
    server.closeAllConnections();
  }, 10_000);
  force.unref();
  server.close(async () => {
    await instance.close().catch((error) => log.error({ err: error }, 'error while closing'));
    await vite?.close();
    log.info('stopped');
    process.exit(0);
  });
  // Keep-alive sockets that finish their last response after this point are idle too.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 100).unref();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
