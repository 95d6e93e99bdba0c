import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { literataSubset } from './scripts/font-subset.js';

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '#server': fileURLToPath(new URL('./server', import.meta.url)),
};

// The SSR build's entry is our own server composition (server/app.ts), which imports
// React Router's server build: one bundle, so the API and the pages share one database
// pool and one set of services (docs/decisions/001-one-node-server.md).
// react-router's package exports only its development build to Node (every condition but the
// browser's points at dist/development), which checks and warns on every render. The server build
// bundles the production build instead, and @react-router/node with it, so no second copy of
// react-router is loaded beside it (docs/decisions/032).
const reactRouterProduction = fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url));

// Vite wraps each dynamic import() of the browser build in a helper that first preloads the
// imported chunk's own imports. Ours (the home page's lower sections, toasts, the signed-in menu)
// import chunks the page has already loaded and no stylesheet of their own (Tailwind's one
// stylesheet is global), so the helper (0.8 KB gzipped, on every page) does nothing for them: it is
// replaced by a plain call (docs/decisions/038). Should Vite rename the helper's module, this no
// longer matches and tests/e2e/page-weight.e2e.test.ts shows the weight coming back.
const noPreloadHelper: Plugin = {
  name: 'afterglow:no-preload-helper',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.config.consumer === 'client',
  load: (id) => (id === '\0vite/preload-helper.js' ? 'export const __vitePreload = (load) => load();' : undefined),
};

// The Markdown render pool's worker is an entry of the server build of its own, loaded by file
// (docs/decisions/047): named `markdown-worker.js` beside React Router's `index.js`, whose naming
// would otherwise number it.
const MARKDOWN_WORKER = 'markdown-worker';
const markdownWorkerEntry: Plugin = {
  name: 'afterglow:markdown-worker-entry',
  applyToEnvironment: (environment) => environment.config.consumer === 'server',
  outputOptions(options) {
    const named = options.entryFileNames;
    return { ...options, entryFileNames: (chunk) => (chunk.name === MARKDOWN_WORKER ? `${MARKDOWN_WORKER}.js` : typeof named === 'function' ? named(chunk) : (named ?? '[name].js')) };
  },
};

// Code every page loads, in two files instead of eight to ten (docs/decisions/042): React, React
// DOM, React Router and the preload stand-in above in one; in the other, our modules that the root
// route imports, statically, all the way down (the frame: navigation, footer, feedback, theme),
// which must be there before any page runs. The texts stay out of it: kept in one chunk, every
// text some page uses would be in every page. Other modules stay split per page: grouping them
// by the pages that share them (entriesAware) moved their sizes by a kilobyte either way with
// each merge threshold, and took the author page over 120 KB at some.
const ROOT_ROUTE = fileURLToPath(new URL('./app/root.tsx', import.meta.url));
const NOT_IN_SHELL = /node_modules|[\\/]lib[\\/](texts[\\/]|messages\.ts)/;
type Chunking = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
const shells = new WeakMap<Chunking, Set<string>>();
/** Whether `id` is imported by the root route, directly or not, through static imports only. */
function inShell(id: string, chunking: Chunking): boolean {
  let shell = shells.get(chunking);
  if (!shell) {
    const found = new Set<string>();
    const walk = (module: string) => {
      const info = found.has(module) ? null : chunking.getModuleInfo(module);
      if (!info) return;
      found.add(module);
      for (const imported of info.importedIds) walk(imported);
    };
    walk(ROOT_ROUTE);
    shells.set(chunking, (shell = found));
  }
  return id !== ROOT_ROUTE && shell.has(id) && !NOT_IN_SHELL.test(id);
}
const CHUNK_GROUPS = [
  { name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]|vite[\\/]preload-helper/, priority: 2 },
  { name: (id: string, chunking: Chunking) => (inShell(id, chunking) ? 'shell' : null), priority: 1 },
];

export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias: isSsrBuild ? [...Object.entries(alias).map(([find, replacement]) => ({ find, replacement })), { find: /^react-router$/, replacement: reactRouterProduction }] : alias },
  build: {
    target: 'es2022',
    // With no preload helper (above), no lists of chunks to preload either.
    modulePreload: false,
    rollupOptions: isSsrBuild ? { input: { index: './server/app.ts', [MARKDOWN_WORKER]: './app/features/blogs/markdown.worker.ts' } } : { output: { codeSplitting: { groups: CHUNK_GROUPS } } },
  },
  // better-auth and Kysely are hundreds of small ES modules each; Node resolving and compiling
  // them one by one was 0.8 s of every start. Bundled into the server build they load in 0.3 s
  // (cold start measured by `npm run bench`). Native, optional and worker-based packages
  // (better-sqlite3, pg, sharp, pino) stay external.
  ssr: isSsrBuild ? { noExternal: ['react-router', '@react-router/node', 'better-auth', /^@better-auth\//, /^@better-fetch\//, 'better-call', 'kysely', 'zod', 'jose', /^@noble\//, 'defu', 'rou3', 'nanostores', 'uncrypto'] } : undefined,
  plugins: [literataSubset(), noPreloadHelper, tailwindcss(), reactRouter(), markdownWorkerEntry],
}));
