import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { assertCanWrite } from '~/kernel/standing.server';
import { AppError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';
import { AUTH_ENDPOINT_LIMITS, type RateLimitRule } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import type { AppDeps, AppEnv } from '../../context.server';
import { apiContext, parseInput, readJson } from './handlers.server';

export type ApiContext = Context<AppEnv>;
type Auth = 'none' | 'optional' | 'required';
type Schema = z.ZodType | undefined;
type ParamsSchema = z.ZodObject | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/** The `{name}`s of a path template, each a string as the router matched it. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
type PathParams<P extends string> = { [K in ParamNames<P>]: string };
/** The path's params: the declared `params` schema's output, the rest as matched. */
type Params<P extends string, S extends ParamsSchema> = S extends z.ZodObject ? Omit<PathParams<P>, keyof z.output<S>> & z.output<S> : PathParams<P>;

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  list?: boolean;
  paged?: boolean;
}

/**
 * What an operation declares (docs/decisions/056): where it answers, who may call it, how often,
 * what input it takes and what it answers. The same object registers the route, applies the
 * checks, and writes the OpenAPI document.
 */
export interface OperationSpec<Path extends string = string, B extends Schema = Schema, Q extends Schema = Schema, P extends ParamsSchema = ParamsSchema> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: Path;
  summary: string;
  tag: string;
  /** `required`: a signed-out call is answered 401 before a byte of input is read. */
  auth: Auth;
  /** The rule its use case counts with ctx.limit (better-auth's endpoints: AUTH_ENDPOINT_LIMITS). */
  limit?: RateLimitRule;
  /**
   * `any`: a suspended account may call it too (signing out, a token for reading). Every other
   * state-changing call that needs sign-in refuses a suspended account before its input is read
   * (docs/decisions/048).
   */
  standing?: 'any';
  /**
   * A public read the page cache keeps for anonymous callers (server/http/middleware/page-cache.server.ts):
   * `lists` stays fresh while the lists version stands, `blog` while the `{id}` blog's revision does.
   */
  cache?: 'lists' | 'blog';
  query?: Q;
  body?: B;
  /** Schemas for path params the handler needs checked (an id's shape, an enum); others arrive as matched. */
  params?: P;
  /** A multipart body the handler reads itself (documented only: uploads are streamed, not parsed up front). */
  multipart?: z.ZodType;
  responses: Record<number, ResponseDoc>;
}

/** What a handler gets: the request, the seam's context, and its input parsed with the declared schemas. */
export interface HandlerArgs<Path extends string, B extends Schema, Q extends Schema, P extends ParamsSchema> {
  c: ApiContext;
  ctx: ServiceContext;
  deps: AppDeps;
  body: Parsed<B>;
  query: Parsed<Q>;
  params: Params<Path, P>;
}

/** A declared operation. `serve` is absent for better-auth's own endpoints, which it serves itself. */
export interface Operation extends OperationSpec {
  serve?: (c: ApiContext, deps: AppDeps) => Promise<Response>;
}

/**
 * Whether a suspended account is refused before the input is read: every state-changing call that
 * needs sign-in, unless declared `standing: 'any'` (docs/decisions/048). The use cases check it too.
 */
export const refusesSuspended = (op: Pick<Operation, 'method' | 'auth' | 'standing'>) => op.method !== 'get' && op.auth === 'required' && op.standing !== 'any';

/** The rate rules an operation is counted by: its own, or better-auth's endpoint table. */
export function limitsOf(op: Pick<Operation, 'path' | 'limit'>): readonly RateLimitRule[] {
  if (op.limit) return [op.limit];
  return op.path.startsWith('/api/auth/') ? (AUTH_ENDPOINT_LIMITS[op.path.slice('/api/auth'.length)] ?? []) : [];
}

/**
 * One API operation: its declaration and its handler in one call. The checks run in a fixed
 * order before the handler — sign-in (`required`: 401), standing, query, body, path params — so
 * a handler only ever sees a caller the declaration admits and input its schemas accepted.
 */
export function defineOperation<const Path extends string, B extends Schema = undefined, Q extends Schema = undefined, P extends ParamsSchema = undefined>(
  spec: OperationSpec<Path, B, Q, P>,
  handler: (args: HandlerArgs<Path, B, Q, P>) => Response | Promise<Response>,
): Operation {
  // Without a schema the value is `undefined`, which is what Parsed<undefined> says.
  const parse = <S extends Schema>(schema: S | undefined, input: () => unknown) => (schema ? parseInput(schema, input()) : undefined) as Parsed<S>;
  return {
    ...spec,
    serve: async (c, deps) => {
      if (spec.auth === 'required' && !c.get('user')) throw new AppError('unauthenticated', MESSAGES.authRequired);
      const ctx = apiContext(deps, c);
      if (refusesSuspended(spec)) await assertCanWrite(ctx);
      const query = parse<Q>(spec.query, () => c.req.query());
      const body = parse<B>(spec.body, () => readJson(c));
      const matched = c.req.param();
      // The router matched every `{name}` of the path, so the record has each ParamNames<Path> key.
      const params = Object.assign({}, matched, spec.params ? parseInput(spec.params, matched) : {}) as Params<Path, P>;
      return handler({ c, ctx, deps, body, query, params });
    },
  };
}

/** One of better-auth's endpoints: declared for the sign-in check, the limits and the document; better-auth serves it. */
export const authEndpoint = <const Path extends `/api/auth/${string}`>(spec: OperationSpec<Path>): Operation => spec;

const honoPath = (path: string) => path.replace(/^\/api/, '').replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers every operation we serve, a path with fewer `{params}` first
 * (`/moderation/users/{id}/approve` before `/moderation/{type}/{id}/approve`: the router takes
 * the first match), else in declaration order. Two operations on one method and path stop the start.
 */
export function mountOperations(api: Hono<AppEnv>, deps: AppDeps, operations: readonly Operation[]) {
  const keys = operations.map((op) => `${op.method} ${op.path}`);
  const twice = keys.filter((key, i) => keys.indexOf(key) !== i);
  if (twice.length) throw new Error(`API operations declared twice: ${twice.join(', ')}`);
  const params = (op: Operation) => op.path.split('{').length;
  for (const op of [...operations].sort((a, b) => params(a) - params(b))) {
    const serve = op.serve;
    if (serve) api.on(op.method.toUpperCase(), honoPath(op.path), (c) => serve(c, deps));
  }
}
