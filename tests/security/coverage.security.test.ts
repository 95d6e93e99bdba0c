import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitsOf, OPERATIONS } from '#server/api/openapi.server';
import { PAGE_ACTIONS } from '~/page-actions';
import routes from '~/routes';
import { type RunningServer, startServer } from '../support/server';

/**
 * Issue 14: a new form or endpoint cannot skip a rate limit, a sign-in check or a schema. The
 * lists come from the declarations themselves — app/routes.ts (every page route) and the API's
 * OPERATIONS (every endpoint, which also registers the handlers) — never from a copy kept here.
 */
interface RouteEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}
const flatten = (entries: RouteEntry[]): RouteEntry[] => entries.flatMap((e) => [e, ...flatten(e.children ?? [])]);
const pageRoutes = flatten(routes as RouteEntry[]);
/** A route module's own `action` export, read from its source (importing it would need the Vite build). */
const hasAction = (file: string) => /^export (async )?function action\b|^export const action\b/m.test(readFileSync(`app/${file}`, 'utf8'));
const withActions = [...new Map(pageRoutes.filter((r) => hasAction(r.file)).map((r) => [r.file, r])).values()];
const changesState = (method: string) => method !== 'get';

describe('every state-changing entry point is covered by a declared rule', () => {
  it('every page action is declared, and each declaration covers it (sign-in, or a rate limit; a schema or ids only)', () => {
    expect(withActions.length).toBeGreaterThan(10);
    const undeclared = withActions.filter((r) => !PAGE_ACTIONS[r.file]).map((r) => r.file);
    expect(undeclared, 'page actions without a declaration in app/page-actions.ts').toEqual([]);
    const stale = Object.keys(PAGE_ACTIONS).filter((file) => !withActions.some((r) => r.file === file));
    expect(stale, 'declarations of modules that have no action').toEqual([]);
    for (const [file, policy] of Object.entries(PAGE_ACTIONS)) {
      if (policy.auth === 'none') expect(policy.limits.length, `${file}: open to anyone, so it needs a rate limit`).toBeGreaterThan(0);
      expect(policy.input === 'id' || policy.input.length > 0, `${file}: declares how its input is checked`).toBe(true);
    }
    console.log(`coverage: ${withActions.length} page actions, each declared (sign-in, limit, schema)`);
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
    const checked = withActions.filter((r) => PAGE_ACTIONS[r.file]?.auth === 'user');
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
