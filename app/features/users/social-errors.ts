import { MESSAGES } from '~/lib/texts/messages';

type ProviderErrorCode = keyof typeof MESSAGES.socialErrors;

/**
 * better-auth's and the OAuth provider's error codes, in the product's vocabulary (docs/product.md#messages). Anything
 * unknown is the provider's 'internal-error': the visitor gets a sentence, never a code.
 */
const CODES: Record<string, ProviderErrorCode> = {
  POPUP_BLOCKED: 'popup-blocked',
  POPUP_CLOSED: 'popup-closed-by-user',
  POPUP_TIMEOUT: 'cancelled-popup-request',
  access_denied: 'popup-closed-by-user',
  login_required: 'popup-closed-by-user',
  consent_required: 'popup-closed-by-user',
  interaction_required: 'popup-closed-by-user',
  unauthorized_client: 'unauthorized-domain',
  invalid_client: 'invalid-api-key',
  invalid_callback_url: 'unauthorized-domain',
  invalid_error_callback_url: 'unauthorized-domain',
  provider_not_found: 'invalid-api-key',
  state_not_found: 'web-storage-unsupported',
  state_mismatch: 'web-storage-unsupported',
  please_restart_the_process: 'web-storage-unsupported',
  network: 'network-request-failed',
};

export function providerErrorCode(code: string | null | undefined): ProviderErrorCode {
  if (!code) return 'internal-error';
  if (code in MESSAGES.socialErrors) return code as ProviderErrorCode;
  return CODES[code] ?? CODES[code.toLowerCase()] ?? 'internal-error';
}

export function socialErrorMessage(code: string | null | undefined): string {
  return MESSAGES.socialErrors[providerErrorCode(code)];
}
