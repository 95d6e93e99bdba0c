import { MESSAGES } from '~/lib/texts/messages';

/** What the profile shows while two-factor is being set up: scanned once, never stored by us. */
export interface TotpSetup {
  /** The otpauth:// URI as a QR code, an inline SVG made here (no outside request). */
  qrSvg: string;
  /** The base32 secret, for apps that cannot scan. */
  secret: string;
  backupCodes: string[];
}

export async function totpSetup(totpURI: string, backupCodes: string[]): Promise<TotpSetup> {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  // Loaded when someone sets up two-factor, not at every start (cold start, docs/decisions/032).
  const { default: QRCode } = await import('qrcode');
  const qrSvg = await QRCode.toString(totpURI, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#000000', light: '#ffffff' } });
  return { qrSvg, secret, backupCodes };
}

/** The pending second step of a sign-in lives in better-auth's signed `two_factor` cookie. */
export const hasTwoFactorChallenge = (cookie: string | null) => /(^|;\s*)(__Secure-)?afterglow\.two_factor=/.test(cookie ?? '');

/** A 6-digit code from the app; anything else is tried as a recovery code. */
export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/** The path better-auth verifies a sign-in code at. */
export const verifyPath = (code: string) => (isTotpCode(code) ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code');

/** better-auth's two-factor error codes, as sentences for the forms. */
export function twoFactorErrorMessage(code: string | undefined, status: number): { message: string; restart: boolean } {
  if (status === 429 && code !== 'ACCOUNT_TEMPORARILY_LOCKED') return { message: MESSAGES.tooManyRequests, restart: false };
  switch (code) {
    case 'INVALID_CODE':
    case 'INVALID_BACKUP_CODE':
      return { message: MESSAGES.twoFactorInvalidCode, restart: false };
    case 'ACCOUNT_TEMPORARILY_LOCKED':
      return { message: MESSAGES.twoFactorLocked, restart: true };
    case 'INVALID_TWO_FACTOR_COOKIE':
    case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
      return { message: MESSAGES.twoFactorExpired, restart: true };
    case 'INVALID_PASSWORD':
      return { message: MESSAGES.twoFactorWrongPassword, restart: false };
    default:
      return { message: MESSAGES.serverError, restart: false };
  }
}

/** better-auth's reason for refusing, as a sentence for the form. */
export async function authErrorMessage(response: Response, fallback: string): Promise<{ message: string; code?: string }> {
  try {
    const body = (await response.json()) as { message?: string; code?: string };
    return { message: body.message || fallback, code: body.code };
  } catch {
    return { message: fallback };
  }
}

/** The session (or state) cookies better-auth set, onto a page's redirect. */
export function forwardCookies(from: Response, to: Headers = new Headers()): Headers {
  for (const cookie of from.headers.getSetCookie()) to.append('Set-Cookie', cookie);
  return to;
}
