import type { FlashMessage } from './feedback';

const COOKIE = 'afterglow.flash';

/**
 * One-time messages across a redirect (a form posted without JavaScript still gets its
 * 'Logged Out' or 'Your Blog added successfully!'): a short-lived cookie the root loader reads
 * and clears.
 */
export function flashCookie(message: FlashMessage, secure = false): string {
  const value = Buffer.from(JSON.stringify(message), 'utf8').toString('base64url');
  return `${COOKIE}=${value}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function readFlash(request: Request): FlashMessage | null {
  const cookie = request.headers.get('cookie') ?? '';
  const match = cookie.match(new RegExp(`(?:^|;\\s*)${COOKIE.replace('.', '\\.')}=([A-Za-z0-9_-]+)`));
  if (!match) return null;
  try {
    const parsed = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) as FlashMessage;
    return parsed && (parsed.type === 'toast' || parsed.type === 'dialog') && typeof (parsed.type === 'toast' ? parsed.text : parsed.title) === 'string'
      ? parsed
      : null;
  } catch {
    return null;
  }
}

export const clearFlashCookie = () => `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/** Headers for a redirect that shows `message` on the next page. */
export function withFlash(message: FlashMessage, headers: Headers = new Headers()): Headers {
  headers.append('Set-Cookie', flashCookie(message));
  return headers;
}
