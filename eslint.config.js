// Lint exists for one job above all: holding the one-way import rule of STYLE.md
// (routes and server/api → feature services → repos → db; components and lib import nothing
// from features, routes or server). Style is left to the formatter and review.
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const zones = [
  // Shared UI and helpers stay independent of the domain and the transport.
  { target: './app/components', from: ['./app/features', './app/routes', './server'] },
  { target: './app/lib', from: ['./app/features', './app/routes', './server', './app/components'], except: [] },
  // The domain never reaches into transports.
  { target: './app/features', from: ['./app/routes', './server'] },
  { target: './app/db', from: ['./app/features', './app/routes', './server', './app/components'] },
  // Transports never touch the database directly: they call services.
  { target: './app/routes', from: ['./app/db/kysely.server.ts', './app/db/migrations'] },
  { target: './server/api', from: ['./app/db/kysely.server.ts', './app/db/migrations'] },
];

export default tseslint.config(
  { ignores: ['build/**', 'node_modules/**', '.react-router/**', 'public/**', 'data/**'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['kysely'], importNames: ['sql'], message: 'Queries belong in a *.repo.server.ts file.' },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests wire layers together on purpose.
    files: ['**/*.test.ts', 'tests/**'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // Repos, the db layer, migrations and tests may build queries.
    files: ['**/*.repo.server.ts', 'app/db/**', '**/*.test.ts', 'server/testing/**', 'scripts/**', 'server/context.server.ts', 'server/http.server.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Transports: no Kysely at all.
    files: ['app/routes/**', 'server/api/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', message: 'Transports call services; queries live in repos.' }] }],
    },
  },
);
