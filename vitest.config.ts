import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = {
  '~': fileURLToPath(new URL('./app', import.meta.url)),
  '#server': fileURLToPath(new URL('./server', import.meta.url)),
  '#test': fileURLToPath(new URL('./tests/support', import.meta.url)),
};

// Vitest 5 races an `expect.poll` callback against the poll's timeout (default 1 s) instead of
// waiting for it: a callback that waits for an element (Playwright's textContent) or a mail counts
// as a failure after 1 s on a loaded machine. Every project polls for up to 30 s; a poll still
// passes as soon as its condition holds.
const expectations = { poll: { timeout: 30_000 } };

// A hook that starts the built server waits up to START_TIMEOUT_MS (90 s, tests/support/processes.js)
// for it, then still has to sign someone up or open a browser: its own bound is twice that, so a
// slow start fails with the wait's message (what the server printed), not a hook's timeout.
const HOOK_TIMEOUT_MS = 180_000;

// Projects: fast unit/integration tests beside the code (real SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set), security, faults, and browser journeys against the built server
// (tests/e2e). The cluster suite (nginx, Redis, two instances) runs only through
// `npm run test:cluster`, which sets AFTERGLOW_CLUSTER_TESTS.
const cluster = {
  resolve: { alias },
  test: {
    name: 'cluster',
    include: ['tests/cluster/**/*.cluster.test.ts'],
    environment: 'node',
          expect: expectations,
    globalSetup: ['tests/setup/build.global.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: 1,
  },
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['app/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          expect: expectations,
          globalSetup: ['tests/setup/databases.global.ts'],
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'security',
          sequence: { groupOrder: 1 },
          include: ['tests/security/**/*.security.test.ts'],
          environment: 'node',
          expect: expectations,
          globalSetup: ['tests/setup/build.global.ts'],
          testTimeout: 120_000,
          hookTimeout: HOOK_TIMEOUT_MS,
          maxWorkers: 2,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'faults',
          sequence: { groupOrder: 2 },
          maxWorkers: 1,
          include: ['tests/faults/**/*.faults.test.ts'],
          environment: 'node',
          expect: expectations,
          globalSetup: ['tests/setup/build.global.ts'],
          testTimeout: 300_000,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'mail',
          sequence: { groupOrder: 2 },
          maxWorkers: 1,
          include: ['tests/mail/**/*.mail.test.ts'],
          environment: 'node',
          expect: expectations,
          globalSetup: ['tests/setup/build.global.ts', 'tests/setup/databases.global.ts'],
          testTimeout: 120_000,
          hookTimeout: HOOK_TIMEOUT_MS,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          // A browser journey on a loaded 2-core machine can lose a race it never loses alone (a
          // focus check during a late chunk, a form answered after the poll gave up); it gets one
          // more go. A real fault fails both.
          retry: 1,
          sequence: { groupOrder: 3 },
          include: ['tests/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          expect: expectations,
          globalSetup: ['tests/setup/build.global.ts'],
          testTimeout: 60_000,
          hookTimeout: HOOK_TIMEOUT_MS,
          maxWorkers: 2,
        },
      },
      ...(process.env.AFTERGLOW_CLUSTER_TESTS ? [cluster] : []),
    ],
  },
});
