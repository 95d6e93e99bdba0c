import type { AppLoadContext } from 'react-router';
import type { z } from 'zod';
import type { RateLimitRule } from '~/lib/core/rate-limits';
import type { ServiceContext } from '~/lib/core/service-context';
import { userOrRedirectToLogin } from './session.server';

/** A form's schema, its schemas by intent, or 'id' when it carries only ids the use case looks up. */
export type ActionInput = z.ZodType | Readonly<Record<string, z.ZodType>> | 'id';

/**
 * What a page form's action answers to (docs/decisions/056).
 * - `auth` — `user`: a signed-out post reaches no use case (it gets `signedOut`'s answer, else a
 *   redirect to /login and back); `mail-link`: the signed link in the path proves who asks (or the
 *   session), which its use case checks; `none`: anyone, so it must be rate-limited.
 * - `limits` — the rules its use cases may count with ctx.limit (or through the auth port); counting
 *   another one is a bug that fails the post, so the list cannot fall behind the code.
 * - `input` — the schemas the form is parsed with, handed to the handler so it parses with them.
 */
export interface ActionPolicy<I extends ActionInput = ActionInput> {
  auth: 'user' | 'mail-link' | 'none';
  limits: readonly RateLimitRule[];
  input: I;
}

interface ActionArgsBase {
  context: AppLoadContext;
  request: Request;
}

export interface ActionTools<I extends ActionInput> {
  /** The request's context, whose `limit` counts only the declared rules. */
  ctx: ServiceContext;
  input: I;
}

/** A route module's `action`, carrying the policy it applies (read by tests/security/coverage). */
export type PageAction<A, R> = ((args: A) => Promise<R>) & { readonly policy: ActionPolicy };

/** The context for one action: counting an undeclared rule throws, so a use case cannot outgrow the declaration unseen. */
function limitedTo(ctx: ServiceContext, rules: readonly RateLimitRule[]): ServiceContext {
  return {
    ...ctx,
    limit: (rule) => (rules.includes(rule) ? ctx.limit(rule) : Promise.reject(new Error(`rate rule ${rule.name} is counted but not declared by this page action`))),
  };
}

/**
 * A route action defined with its policy in one call that applies it: the sign-in check runs
 * before the body is read, the handler gets the declared schemas and a context limited to the
 * declared rules. `signedOut` is the screen's own answer to a signed-out post (a notice, the
 * typed text back with a 401); without it the post is sent to log in.
 */
export function defineAction<A extends ActionArgsBase>() {
  return <const I extends ActionInput, R, S = never>(
    policy: ActionPolicy<I> & { signedOut?: (args: A) => S | Promise<S> },
    handler: (args: A, tools: ActionTools<I>) => R | Promise<R>,
  ): PageAction<A, Awaited<R> | Awaited<S>> => {
    const { signedOut, ...declared } = policy;
    const action = async (args: A): Promise<Awaited<R> | Awaited<S>> => {
      if (declared.auth === 'user' && !args.context.user) {
        if (signedOut) return await signedOut(args);
        userOrRedirectToLogin(args.context, args.request);
      }
      return await handler(args, { ctx: limitedTo(args.context.service, declared.limits), input: declared.input });
    };
    return Object.assign(action, { policy: declared });
  };
}
