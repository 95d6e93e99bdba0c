import { useRef, useState } from 'react';
import { useFeedback } from '~/components/feedback';
import { MESSAGES } from '~/lib/texts/messages';
import { socialErrorMessage } from '../social-errors';

export interface SocialProvider {
  id: string;
  name: string;
}

/** The popup size (docs/product.md#constants). */
const POPUP = { width: 500, height: 600 };
// better-auth's oauth-popup plugin posts this message type from the popup's last page.
const POPUP_MESSAGE_TYPE = 'better-auth:oauth-popup';
const CLOSED_POLL_MS = 400;
// The popup's last page posts its message and closes itself at once: the opener can see it
// closed before the message is delivered, so a closed popup counts only after this grace.
const CLOSED_GRACE_MS = 800;

export function socialLabel(provider: SocialProvider, mode: 'login' | 'register'): string {
  if (provider.id === 'google') return mode === 'login' ? MESSAGES.logInWithGoogle : MESSAGES.signUpWithGoogle;
  return mode === 'login' ? MESSAGES.logInWith(provider.name) : MESSAGES.signUpWith(provider.name);
}

/** Where the redirect flow starts (no JavaScript, or a blocked popup): the login loader. */
export function socialStartPath(provider: string, redirectTo: string): string {
  return `/login?${new URLSearchParams({ provider, redirectTo })}`;
}

/** After success the login loader carries the visitor on with the success toast. */
const donePath = (redirectTo: string) => `/login?${new URLSearchParams({ social: 'done', redirectTo })}`;

function popupFeatures(): string {
  const left = Math.round(window.screenX + (window.outerWidth - POPUP.width) / 2);
  const top = Math.round(window.screenY + (window.outerHeight - POPUP.height) / 2);
  return `popup=yes,width=${POPUP.width},height=${POPUP.height},left=${left},top=${top}`;
}

type Outcome = { ok: true } | { ok: false; code: string };

/** Opens the provider in a popup and waits for better-auth's last page to report back. */
function signInWithPopup(provider: string, redirectTo: string): Promise<Outcome> | null {
  const nonce = crypto.randomUUID();
  const start = new URL('/api/auth/oauth-popup/start', window.location.origin);
  start.search = new URLSearchParams({
    provider,
    popupOrigin: window.location.origin,
    popupNonce: nonce,
    callbackURL: donePath(redirectTo),
    errorCallbackURL: `/login?${new URLSearchParams({ redirectTo })}`,
  }).toString();
  const popup = window.open(start, 'afterglow-sign-in', popupFeatures());
  if (!popup) return null;
  return new Promise((resolve) => {
    let grace: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: Outcome) => {
      window.removeEventListener('message', onMessage);
      clearInterval(poll);
      clearTimeout(grace);
      if (!popup.closed) popup.close();
      resolve(outcome);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; nonce?: string; token?: string; error?: { code?: string } } | null;
      if (event.origin !== window.location.origin || data?.type !== POPUP_MESSAGE_TYPE || data.nonce !== nonce) return;
      finish(data.token ? { ok: true } : { ok: false, code: data.error?.code ?? 'internal-error' });
    };
    const poll = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(poll);
      grace = setTimeout(() => finish({ ok: false, code: 'popup-closed-by-user' }), CLOSED_GRACE_MS);
    }, CLOSED_POLL_MS);
    window.addEventListener('message', onMessage);
  });
}

/**
 * 'Log In with Google' and friends (docs/product.md#identity-provider): a link that starts the full-page redirect flow,
 * upgraded by JavaScript to the 500×600 popup, falling back to the redirect when the
 * browser blocks the popup. A closed popup or a provider error becomes a friendly message.
 */
export function SocialLogin({ providers, mode, redirectTo }: { providers: SocialProvider[]; mode: 'login' | 'register'; redirectTo: string }) {
  const { dialog } = useFeedback();
  const [busy, setBusy] = useState<string | null>(null);
  const busyRef = useRef(false);
  if (providers.length === 0) return null;

  const start = async (event: React.MouseEvent<HTMLAnchorElement>, provider: SocialProvider) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    if (busyRef.current) {
      void dialog({ title: MESSAGES.loginErrorTitle, text: socialErrorMessage('cancelled-popup-request'), kind: 'info' });
      return;
    }
    const pending = signInWithPopup(provider.id, redirectTo);
    if (!pending) {
      window.location.assign(event.currentTarget.href);
      return;
    }
    busyRef.current = true;
    setBusy(provider.id);
    const outcome = await pending;
    busyRef.current = false;
    setBusy(null);
    if (outcome.ok) {
      window.location.assign(donePath(redirectTo));
      return;
    }
    void dialog({ title: MESSAGES.loginErrorTitle, text: socialErrorMessage(outcome.code), kind: 'error' });
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="divider my-1 text-sm">or</div>
      {providers.map((provider) => (
        <a
          key={provider.id}
          href={socialStartPath(provider.id, redirectTo)}
          className="btn btn-outline w-full"
          aria-busy={busy === provider.id || undefined}
          onClick={(event) => void start(event, provider)}
          data-testid={`social-${provider.id}`}
        >
          {provider.id === 'google' ? <GoogleMark /> : null}
          {socialLabel(provider, mode)}
        </a>
      ))}
    </div>
  );
}

function GoogleMark() {
  return (
    <svg className="h-5 w-5" viewBox="0 0 48 48" aria-hidden="true">
      <path fill="#EA4335" d="M24 9.5c3.5 0 6.6 1.2 9.1 3.6l6.8-6.8C35.8 2.4 30.3 0 24 0 14.6 0 6.6 5.4 2.7 13.3l7.9 6.1C12.5 13.6 17.8 9.5 24 9.5z" />
      <path fill="#4285F4" d="M46.5 24.5c0-1.6-.1-3.1-.4-4.5H24v9h12.7c-.6 3-2.3 5.5-4.8 7.2l7.7 6c4.5-4.2 6.9-10.3 6.9-17.7z" />
      <path fill="#FBBC05" d="M10.6 28.6c-.5-1.4-.8-3-.8-4.6s.3-3.2.8-4.6l-7.9-6.1C1 16.6 0 20.2 0 24s1 7.4 2.7 10.7l7.9-6.1z" />
      <path fill="#34A853" d="M24 48c6.5 0 11.9-2.1 15.9-5.8l-7.7-6c-2.1 1.4-4.9 2.3-8.2 2.3-6.2 0-11.5-4.1-13.4-9.8l-7.9 6.1C6.6 42.6 14.6 48 24 48z" />
    </svg>
  );
}
