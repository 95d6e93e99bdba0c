import { type AppLoadContext, redirect } from 'react-router';
import { sameSitePath } from './same-site-path';
import type { SessionUser } from './service-context';

/** Only a same-site path may be a return target: never another origin, never `//host`. */
export function safeRedirectPath(target: string | null | undefined, fallback = '/'): string {
  return (target && sameSitePath(target)) || fallback;
}

/**
 * The protected-route guard (spec §2): anonymous visitors go to /login carrying the attempted
 * path, so login can return there.
 */
export function requireUser(context: AppLoadContext, request: Request): SessionUser {
  if (context.user) return context.user;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}
