import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '#server': fileURLToPath(new URL('./server', import.meta.url)),
};

// The SSR build's entry is our own server composition (server/app.ts), which imports
// React Router's server build: one bundle, so the API and the pages share one database
// pool and one set of services (docs/decisions/001-one-node-server.md).
export default defineConfig(({ isSsrBuild }) => ({
  resolve: { alias },
  build: {
    target: 'es2022',
    rollupOptions: isSsrBuild ? { input: './server/app.ts' } : undefined,
  },
  // better-auth and Kysely are hundreds of small ES modules each; Node resolving and compiling
  // them one by one was 0.8 s of every start. Bundled into the server build they load in 0.3 s
  // (cold start measured by `npm run bench`). Native, optional and worker-based packages
  // (better-sqlite3, pg, sharp, pino) stay external.
  ssr: isSsrBuild ? { noExternal: ['better-auth', /^@better-auth\//, /^@better-fetch\//, 'better-call', 'kysely', 'zod', 'jose', /^@noble\//, 'defu', 'rou3', 'nanostores', 'uncrypto'] } : undefined,
  plugins: [tailwindcss(), reactRouter()],
}));
