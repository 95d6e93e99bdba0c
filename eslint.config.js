// Lint exists for one job above all: holding the one-way import rule of STYLE.md
// (routes and server/http/api → feature services → repos → db; components and lib import nothing
// from features, routes or server). Style is left to the formatter and review.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const zones = [
  // Shared UI and helpers stay independent of the domain and the transport.
  { target: './app/components', from: ['./app/features', './app/routes', './server'] },
  { target: './app/lib', from: ['./app/features', './app/routes', './server', './app/components'], except: [] },
  // The shared kernel (jobs, events, account standing) is what features build on: it knows none of them.
  { target: './app/kernel', from: ['./app/features', './app/routes', './server', './app/components'] },
  // The domain never reaches into transports.
  { target: './app/features', from: ['./app/routes', './server'] },
  { target: './app/db', from: ['./app/routes', './server', './app/components'] },
  // …but for the freshness rules each feature states of its own tables, gathered in app/db/freshness.ts (docs/decisions/071).
  { target: './app/db', from: './app/features/**', except: ['**/app/features/*/*.freshness.ts'] },
  // Transports never touch the database directly: they call services. Routes reach the server
  // only through the seam's context (ctx.auth, ctx.limit), never server/ itself (issue 14).
  { target: './app/routes', from: ['./app/db/kysely.server.ts', './app/db/migrations', './server'] },
  { target: './server/http/api', from: ['./app/db/kysely.server.ts', './app/db/migrations'] },
];

// A feature reaches another only through its public face: its `*.service.server.ts`, schemas,
// presenters, components and client-safe helpers — never its repo or its other server modules
// (decision 035).
const features = readdirSync('app/features');
for (const feature of features) {
  zones.push({
    target: `./app/features/${feature}`,
    from: `./app/features/!(${feature})/**/!(*.service).server.ts`,
    message: `Reach another feature through its *.service.server.ts (decision 035).`,
  });
}

// Features sit side by side (docs/decisions/057): a feature does not call another feature's
// service either — what one feature does because of another's change goes through a domain event
// (app/kernel/events.server.ts), and standing through app/kernel/standing.server.ts. The edges
// left are reads and the image store, each listed here: a new one is a visible, reviewed line.
const SERVICE_READS = {
  // Not reads, kept on purpose (docs/decisions/071): a photo is stored or adopted inside the request
  // that saves the blog or the account using it, and removed again when that save is refused.
  blogs: ['images', 'tags'], // storing and adopting photos; a photo's focal point; a post's tags saved in its own transaction (setBlogTags, docs/decisions/069)
  users: ['images'], // the sign-up photo
  feeds: ['blogs', 'images', 'tags'], // the feeds list blogs; a tag's feed and the sitemap's tag pages
  home: ['blogs', 'newsletter', 'users', 'wishlist'], // the home page's figures and lists
  wishlist: ['blogs'], // a wished blog as its page shows it
  mail: ['images', 'notifications', 'blogs'], // a mailed post's photo and its body as the site renders it; what a notification mail says and who gets a digest (docs/decisions/062)
  newsletter: ['follows', 'mail'], // the writer an unsubscribe link names, and the follow it ends at once (RFC 8058: before the next post's mail); the signed mail links
  imports: ['federation', 'images', 'moderation', 'newsletter', 'tags'], // a writer's follows of accounts elsewhere are asked again (docs/decisions/089); imported images go through the pipeline; a site import is for admins and approves the accounts it makes; imported subscribers get the confirmation mail; an imported post's tags (docs/decisions/072, 083)
  exports: ['blogs', 'imports', 'mail', 'moderation', 'tags'], // ghost.json's html is the site's own render; a post's old addresses; the ready mail's text; a site export is for admins; each post's tags (docs/decisions/074)
  federation: ['blogs', 'moderation'], // a post goes out with its body as the site renders it; a reply from elsewhere becomes a comment by the blogs' own rules; blocking asks moderation for the caller's role (docs/decisions/068)
};
for (const feature of features) {
  const allowed = [feature, ...(SERVICE_READS[feature] ?? [])];
  zones.push({
    target: `./app/features/${feature}`,
    from: `./app/features/!(${allowed.join('|')})/**/*.service.server.ts`,
    message: `Features sit side by side: act on another feature's change through a domain event (app/kernel/events.server.ts), or list a read in SERVICE_READS (docs/decisions/057).`,
  });
}

// Routes are thin: they reach features only through their services, form adapters, schemas,
// presenters, components and client-safe helpers — never a repo or another server module.
zones.push({
  target: './app/routes',
  from: './app/features/**/!(*.service|*-form).server.ts',
  message: 'Routes call services (or a form adapter, *-form.server.ts), never repos or other server modules (docs/decisions/057).',
});

// A viewer's own strings are slotted in one place, ./app/lib/render/viewer-strings.server.ts, and
// reach loaders through `context.shown` (docs/decisions/078): the page code cannot make a slot, so
// none can forget one or slot a value it derived from another.
zones.push({
  target: ['./app/routes', './app/features', './app/components', './app/root.tsx'],
  from: ['./app/lib/render/viewer-slots.server.ts', './app/lib/render/viewer-strings.server.ts'],
  message: "A viewer's strings come from context.shown, declared in app/lib/render/viewer-strings.server.ts (docs/decisions/078).",
});

// File names (decision 035): kebab-case parts joined by dots, `<subject>.<role>[.server].ts`; a
// feature's own files carry its folder's (plural) name, never the singular; API tests sit beside
// the API (server/http/api/<resource>.api.test.ts) and each API module is named after the feature it
// exposes; whatever imports vitest is a `*.test.ts`, outside the test support folders.
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const API_RESOURCES = new Set([...features, 'comments', 'docs']);
const fileNames = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const rel = path.relative(import.meta.dirname, context.filename).split(path.sep).join('/');
    const base = path.basename(rel);
    const problems = [];
    if (!rel.startsWith('app/db/migrations/') && !base.endsWith('.d.ts')) {
      const parts = base.replace(/\.(tsx?|jsx?)$/, '').split('.');
      if (!parts.every((part) => KEBAB.test(part))) problems.push(`${base}: kebab-case parts joined by dots (<subject>.<role>[.server].ts)`);
      const feature = /^app\/features\/([^/]+)\/[^/]+$/.exec(rel)?.[1];
      if (feature && parts[0] === feature.replace(/s$/, '') && parts[0] !== feature) problems.push(`${base}: a feature's files carry its folder's name (${feature}.…)`);
      if (/\.api\.test\.tsx?$/.test(base) && !rel.startsWith('server/http/api/')) problems.push(`${base}: API tests sit beside the API, in server/http/api/`);
      const api = /^server\/http\/api\/([^/.]+)\.api\.server\.ts$/.exec(rel)?.[1];
      if (api && !API_RESOURCES.has(api)) problems.push(`${base}: an API module is named after the feature it exposes (app/features/<name>)`);
    }
    const isTest = /\.test\.tsx?$/.test(base) || /^tests\/(support|setup)\//.test(rel);
    return {
      Program(node) {
        for (const message of problems) context.report({ node, message });
      },
      ImportDeclaration(node) {
        if (node.source.value === 'vitest' && !isTest) context.report({ node, message: `${base} imports vitest: a test is named *.test.ts (helpers live in tests/support/)` });
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['build/**', 'node_modules/**', '.react-router/**', 'public/**', 'data/**'] },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { 'import-x': importX, '@typescript-eslint': tseslint.plugin, afterglow: { rules: { 'file-names': fileNames } } },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      // no-cycle follows imports through TypeScript files only when it may parse them.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'afterglow/file-names': 'error',
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
    // The slots' own method, by any other road than an import (a cast of the context's `slots`).
    files: ['app/routes/**', 'app/features/**', 'app/components/**', 'app/root.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='slot']", message: "A viewer's strings come from context.shown, declared in app/lib/render/viewer-strings.server.ts (docs/decisions/078)." },
      ],
    },
  },
  {
    // Tests wire layers together on purpose.
    files: ['**/*.test.ts', 'tests/**'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    // Repos, the db layer, migrations and tests may build queries.
    files: ['**/*.repo.server.ts', 'app/db/**', '**/*.test.ts', 'scripts/**', 'server/context.server.ts', 'server/http/http.server.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Transports: no Kysely at all.
    files: ['app/routes/**', 'server/http/api/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'kysely', message: 'Transports call services; queries live in repos.' }] }],
    },
  },
);
