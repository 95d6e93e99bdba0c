import { type AppLoadContext, data, redirect } from 'react-router';
import { sameSitePath } from './same-site-path';
import type { SessionUser } from '~/lib/core/service-context';

/** Only a same-site path may be a return target: never another origin, never `//host`. */
export function safeRedirectPath(target: string | null | undefined, fallback = '/'): string {
  return (target && sameSitePath(target)) || fallback;
}

/**
 * The protected-route guard (docs/product.md#who-can-do-what): anonymous visitors go to /login carrying the attempted
 * path, so login can return there.
 */
export function userOrRedirectToLogin(context: AppLoadContext, request: Request): SessionUser {
  if (context.user) return context.user;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** The login page, returning to the page of `request` (and `hash` on it) once signed in. */
export function loginHref(request: Request, hash = ''): string {
  const url = new URL(request.url);
  return `/login?redirectTo=${encodeURIComponent(url.pathname + url.search + hash)}`;
}

/** What a form's action answers when its session ended before the post: the screen's failure with a way back in. */
export interface SignedOutFailure {
  signedOut: true;
  signIn: string;
}

/**
 * A form posted after the session ended (signed out in another tab, expired) is answered 401
 * with the screen's own failure, a sign-in link that returns here, and what was typed, instead
 * of a redirect to /login that would throw the text away (docs/decisions/026).
 */
export function signedOutPost<T extends object>(request: Request, failure: T, hash = '') {
  return data<T & SignedOutFailure>({ ...failure, signedOut: true, signIn: loginHref(request, hash) }, { status: 401 });
}

/**
 * For the loaders of pages whose form may be posted after the session ended: the user, or null
 * while rendering such a post's answer (the page shows the typed values, not /login).
 */
export function userOrSignedOutPost(context: AppLoadContext, request: Request): SessionUser | null {
  if (!context.user && context.formPost) return null;
  return userOrRedirectToLogin(context, request);
}
