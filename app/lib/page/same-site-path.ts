const SELF = 'http://afterglow.invalid';
/** C0, DEL and C1: no place in a URL (browsers drop some of them and keep others). */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `target` as a path of this site, the way a browser resolves it (normalised, percent-encoded,
 * so always a valid header value), or null when it would leave the site. Browsers drop tabs and
 * line breaks inside a URL and read `\` as `/` (`/\t/host`, `/\host` are `//host`), and
 * normalising can itself make `//host` (`/.//host`, `/a/..//host`, `/%2e//host`): so control
 * characters are refused outright and the normalised result is judged, not the input.
 * Client-safe: no URL.parse, which browsers before 2024 lack.
 */
export function sameSitePath(target: string): string | null {
  if (!target.startsWith('/') || CONTROL_CHARACTERS.test(target)) return null;
  let url: URL;
  try {
    url = new URL(target, SELF);
  } catch {
    return null;
  }
  if (url.origin !== SELF) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('//') ? null : path;
}
