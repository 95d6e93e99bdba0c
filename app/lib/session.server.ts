import { type AppLoadContext, redirect } from 'react-router';
import type { SessionUser } from './service-context';

/** Only a same-site path may be a return target: never another origin, never `//host`. */
export function safeRedirectPath(target: string | null | undefined, fallback = '/'): string {
  // Control characters (a CR/LF header-injection attempt) would make the Location header throw.
  if (!target || !target.startsWith('/') || /[\u0000-\u001f\u007f]/.test(target)) return fallback;
  // Parsed as the browser will: `//host` and `/\host` leave the site; anything else is
  // normalised and percent-encoded, so it is always a valid header value.
  const url = new URL(target, SELF);
  if (url.origin !== SELF) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
const SELF = 'http://afterglow.invalid';

/**
 * The protected-route guard (spec §2): anonymous visitors go to /login carrying the attempted
 * path, so login can return there.
 */
export function requireUser(context: AppLoadContext, request: Request): SessionUser {
  if (context.user) return context.user;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}
