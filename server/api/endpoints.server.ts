import type { Context, Hono } from 'hono';
import { assertCanWrite } from '~/kernel/standing.server';
import { AppError } from '~/lib/errors';
import { MESSAGES } from '~/lib/messages';
import type { ServiceContext } from '~/lib/service-context';
import type { AppDeps, AppEnv } from '../context.server';
import { apiContext, parseInput, readJson } from './handlers.server';
import { OPERATIONS, type Operation } from './openapi.server';

export type ApiContext = Context<AppEnv>;

/** What a handler gets: the request, the seam's context, and the body and query its declaration validated. */
export interface HandlerArgs {
  c: ApiContext;
  ctx: ServiceContext;
  deps: AppDeps;
  /** The JSON body, parsed with the declaration's `body` schema (undefined without one). */
  body: unknown;
  /** The query, parsed with the declaration's `query` schema (undefined without one). */
  query: unknown;
}
export type Handler = (args: HandlerArgs) => Response | Promise<Response>;
/** A feature's handlers, keyed `method path` exactly as declared in OPERATIONS ('get /api/blogs/{id}'). */
export type Handlers = Record<string, Handler>;

/**
 * Whether a suspended account is refused before the input is read: every state-changing call that
 * needs sign-in, unless declared `standing: 'any'` (docs/decisions/048). The use cases check it too.
 */
export const refusesSuspended = (op: Pick<Operation, 'method' | 'auth' | 'standing'>) => op.method !== 'get' && op.auth === 'required' && op.standing !== 'any';

export const operationKey = (op: Pick<Operation, 'method' | 'path'>) => `${op.method} ${op.path}`;
const honoPath = (path: string) => path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers every declared operation that is ours (better-auth serves /api/auth/* itself) with
 * its handler, a path with fewer `{params}` first (`/moderation/users/{id}/approve` before
 * `/moderation/{type}/{id}/approve`: the router takes the first match), else in declaration order. The declaration does the sign-in check (`required`: 401
 * before a byte of input is read), the standing check (refusesSuspended) and the validation; a handler without a declaration, or a
 * declaration without a handler, stops the start, so the document cannot drift from the code.
 */
export function mountOperations(api: Hono<AppEnv>, deps: AppDeps, ...groups: Handlers[]) {
  const handlers: Handlers = Object.assign({}, ...groups);
  const ours = OPERATIONS.filter((op) => !op.path.startsWith('/api/auth/'));
  const undeclared = Object.keys(handlers).filter((key) => !ours.some((op) => operationKey(op) === key));
  const unserved = ours.filter((op) => !handlers[operationKey(op)]).map(operationKey);
  if (undeclared.length || unserved.length) {
    throw new Error(`API declarations and handlers disagree: undeclared ${undeclared.join(', ') || '-'}; unserved ${unserved.join(', ') || '-'}`);
  }
  const params = (op: Operation) => op.path.split('{').length;
  for (const op of [...ours].sort((a, b) => params(a) - params(b))) {
    const handler = handlers[operationKey(op)]!;
    api.on(op.method.toUpperCase(), honoPath(op.path), async (c) => {
      if (op.auth === 'required' && !c.get('user')) throw new AppError('unauthenticated', MESSAGES.authRequired);
      const ctx = apiContext(deps, c);
      if (refusesSuspended(op)) await assertCanWrite(ctx);
      const query = op.query ? parseInput(op.query, c.req.query()) : undefined;
      const body = op.body ? parseInput(op.body, readJson(c)) : undefined;
      return handler({ c, ctx, deps, body, query });
    });
  }
}
