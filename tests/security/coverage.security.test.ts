import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Operation, limitsOf } from '#server/http/api/endpoints.server';
import { OPERATIONS } from '#server/http/api/operations.server';
import { createTestApp, type TestApp } from '#test/test-app';
import type { ActionPolicy } from '~/lib/page/page-action.server';
import { AUTH_ENDPOINT_LIMITS, RATE_LIMITS, type RateLimitRule } from '~/lib/core/rate-limits';
import routes from '~/routes';
import { type RunningServer, startServer } from '../support/server';

/**
 * A new form or endpoint cannot skip a rate limit, a sign-in check or a schema. What is checked is
 * what runs: the `action` each route module of app/routes.ts exports (defineAction attaches the
 * policy it applies), and the routes the API app really mounts (each must be a defined operation,
 * whose definition is what applies its checks) — never a copy kept here.
 */
interface RouteEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
const pageRoutes = [...new Map(flatten(routes as RouteEntry[]).map((r) => [r.file, r])).values()];
const MODULES = import.meta.glob<{ action?: { policy?: ActionPolicy } }>('/app/routes/*.{ts,tsx}');
interface PageActionFound {
  route: RouteEntry;
  policy: ActionPolicy | undefined;
}
/** Every route module's `action` as the app runs it, with the policy it applies (undefined: none). */
async function pageActions(): Promise<PageActionFound[]> {
  const found: PageActionFound[] = [];
  for (const route of pageRoutes) {
    const load = MODULES[`/app/${route.file}`];
    if (!load) throw new Error(`app/routes.ts names ${route.file}, which is not a route module here`);
    const { action } = await load();
    if (action) found.push({ route, policy: action.policy });
  }
  return found;
}
const changesState = (method: string) => method !== 'get';

/** The app modules a module reaches through its `~/` and relative imports, with their sources. */
function reach(start: string, seen = new Map<string, string>()): Map<string, string> {
  if (seen.has(start) || DECLARATIONS.has(start)) return seen;
  const source = readFileSync(start, 'utf8');
  seen.set(start, source);
  for (const [, spec] of source.matchAll(/from '([^']+)'/g)) {
    const base = spec!.startsWith('~/') ? `app/${spec!.slice(2)}` : spec!.startsWith('.') ? path.join(path.dirname(start), spec!) : null;
    const file = base && [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => existsSync(f) && !f.endsWith('/'));
    if (file && /\.tsx?$/.test(file)) reach(file, seen);
  }
  return seen;
}
/** Where the rules and the wrapper are written: naming a rule there counts nothing. */
const DECLARATIONS = new Set(['app/lib/core/rate-limits.ts', 'app/lib/page/page-action.server.ts']);
/** A rule is counted by `ctx.limit(RATE_LIMITS.x)`, or by the auth port for the better-auth paths it guards. */
const counts = (code: string, rule: RateLimitRule) => {
  const key = Object.entries(RATE_LIMITS).find(([, r]) => r === rule)?.[0];
  if (key && new RegExp(`ctx\\.limit\\(RATE_LIMITS\\.${key}\\)`).test(code)) return true;
  return Object.entries(AUTH_ENDPOINT_LIMITS).some(([authPath, rules]) => rules.includes(rule) && new RegExp(`ctx\\.auth\\.call\\(['\`]${authPath.replace(/\/(verify-totp|verify-backup-code|enable|disable|get-totp-uri|generate-backup-codes)$/, '/')}`).test(code));
};
/** Every exported schema of the features, by name. */
const SCHEMA_NAMES = new Map(
  Object.values(import.meta.glob<Record<string, unknown>>('/app/features/*/*.schema.ts', { eager: true })).flatMap((mod) => Object.entries(mod).map(([name, value]) => [value, name] as const)),
);
/** The API routes a freshly built app mounts, as `method /api/path{param}`; docs and better-auth's catch-all are not operations. */
const NOT_OPERATIONS = new Set(['/api/auth/*', '/api/*', '/api/openapi.json', '/api/docs']);
const mounted = (t: TestApp) =>
  new Set(t.app.routes.filter((r) => r.path.startsWith('/api') && r.method !== 'ALL' && !NOT_OPERATIONS.has(r.path)).map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`));

describe('every state-changing entry point is covered by a declared rule', () => {
  it('every page action is defined with its policy, and each policy holds for the code it runs (its rate rules counted, its schemas parsed)', async () => {
    const actions = await pageActions();
    expect(actions.length).toBeGreaterThan(10);
    const undeclared = actions.filter((a) => !a.policy).map((a) => a.route.file);
    expect(undeclared, 'route actions not defined with defineAction (app/lib/page/page-action.server.ts)').toEqual([]);
    // Each declaration is checked against the code the action runs, not against itself: every
    // declared schema and rate rule must be used by the route module or a module it reaches.
    const wrong: string[] = [];
    for (const { route, policy } of actions) {
      const file = route.file;
      const reached = [...reach(`app/${file}`)];
      const code = reached.map(([, source]) => source).join('\n');
      if (!policy) continue;
      if (policy.auth === 'none' && policy.limits.length === 0) wrong.push(`${file}: open to anyone, so it needs a rate limit`);
      for (const rule of policy.limits) if (!counts(code, rule)) wrong.push(`${file}: declares ${rule.name}, which nothing it runs counts`);
      if (policy.input === 'id') continue;
      // A schema is used where it is parsed: by the handler through the `input` the wrapper hands
      // it, or, named, by a module the action reaches (the policy's own `input:` line aside).
      const own = readFileSync(`app/${file}`, 'utf8');
      const parsing = reached.filter(([name]) => !name.endsWith('.schema.ts')).map(([, source]) => source.replace(/^.*\binput: .*$/gm, '')).join('\n');
      const single = 'safeParse' in policy.input;
      const schemas: [string, unknown][] = single ? [['', policy.input]] : Object.entries(policy.input);
      for (const [key, schema] of schemas) {
        const name = SCHEMA_NAMES.get(schema);
        const handed = new RegExp(single ? '\\b(input|schema)\\.(safeParse|parse)\\(' : `\\binput\\.${key}\\.(safeParse|parse)\\(`).test(own);
        const named = name !== undefined && new RegExp(`\\b${name}\\b`).test(parsing);
        if (!handed && !named) wrong.push(`${file}: declares ${name ?? 'a schema'}, which it never parses with`);
      }
    }
    expect(wrong).toEqual([]);
    console.log(`coverage: ${actions.length} page actions, each defined with its policy, each declared rule counted and schema parsed by the code it reaches`);
  });

});

describe('every API route the app mounts is a defined operation, and each definition covers its writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it('mounts nothing without a definition, and every definition we serve is mounted', () => {
    const routes = mounted(t);
    const defined = new Map<string, Operation>(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]));
    expect([...routes].filter((r) => !defined.has(r)), 'API routes mounted without a definition (defineOperation)').toEqual([]);
    expect(OPERATIONS.filter((op) => op.serve && !routes.has(`${op.method} ${op.path}`)).map((op) => `${op.method} ${op.path}`), 'definitions not mounted').toEqual([]);
    console.log(`coverage: ${routes.size} mounted API routes, each a defined operation`);
  });

  it('every state-changing API endpoint needs sign-in or is rate-limited, and declares its body', () => {
    const writes = OPERATIONS.filter((op) => changesState(op.method));
    const uncovered = writes.filter((op) => op.auth !== 'required' && limitsOf(op).length === 0).map((op) => `${op.method} ${op.path}`);
    expect(uncovered, 'open to anyone without a rate limit').toEqual([]);
    // A body-less write acts on ids in its path only, which the use case looks up.
    const unchecked = writes.filter((op) => !op.body && !op.multipart && !/\{\w+\}/.test(op.path) && op.path !== '/api/auth/sign-out').map((op) => `${op.method} ${op.path}`);
    expect(unchecked, 'writes with neither a schema nor an id').toEqual([]);
    console.log(`coverage: ${writes.length} state-changing API endpoints of ${OPERATIONS.length}, each with sign-in or a limit, and a schema or an id`);
  });
});

describe('the declared sign-in checks hold on the running server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.stop());
  const id = randomUUID();
  const fill = (path: string) => path.replace(/\{email\}/g, 'someone%40example.com').replace(/\{type\}/g, 'blogs').replace(/\{\w+\}/g, id);

  it('answers 401 to a signed-out call of every endpoint that needs sign-in, before reading its input', async () => {
    const required = OPERATIONS.filter((op) => op.auth === 'required');
    const wrong: string[] = [];
    for (const op of required) {
      const ours = !op.path.startsWith('/api/auth/');
      // Ours get a body and a query their schemas refuse: a 401 proves neither was checked first.
      // (A body that is not JSON at all is refused by the JSON front for every route, signed in or not.)
      const res = await fetch(`${server.url}${fill(op.path)}${ours ? '?page=-1' : ''}`, {
        method: op.method.toUpperCase(),
        headers: { origin: server.url, 'content-type': 'application/json' },
        body: op.method === 'get' ? undefined : ours ? '{"unexpected":[1,2,3]}' : '{}',
      });
      if (res.status !== 401) wrong.push(`${op.method} ${op.path}: ${res.status}`);
      await res.arrayBuffer();
    }
    expect(wrong).toEqual([]);
    console.log(`coverage: ${required.length} endpoints needing sign-in answer 401 before reading input`);
  });

  it('changes nothing for a signed-out post to every page action that needs sign-in', async () => {
    const wrong: string[] = [];
    const checked = (await pageActions()).filter((a) => a.policy?.auth === 'user').map((a) => a.route);
    for (const route of checked) {
      const path = route.index ? '/' : `/${route.path!.replace(/:\w+\?/g, '').replace(/:\w+/g, id)}`;
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'delete', id, blogId: id, writerId: id, commentText: 'x', name: 'x' }),
      });
      // 401 with the typed text, or a redirect (to log in, or back with a "log in" notice).
      if (res.status !== 401 && !(res.status >= 300 && res.status < 400)) wrong.push(`${route.file} (${path}): ${res.status}`);
      await res.arrayBuffer();
    }
    expect(wrong).toEqual([]);
    console.log(`coverage: ${checked.length} page actions needing sign-in refuse a signed-out post`);
  });
});
