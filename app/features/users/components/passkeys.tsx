import { useEffect, useState } from 'react';
import { Form, useNavigation, useRevalidator } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';
import { useLocalDateTime } from './local-date-time';

/**
 * Passkeys (docs/decisions/075): better-auth's passkey endpoints under /api/auth/passkey do the
 * ceremonies and keep each challenge server-side; the browser only asks the authenticator. A
 * passkey needs JavaScript (the WebAuthn API), so the buttons wait for it; removing one is a
 * plain form.
 */
const PASSKEY_API = '/api/auth/passkey';

/** Whether the page's scripts run (a passkey cannot be made or used without them). */
function useScripts(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return ready;
}

async function api(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${PASSKEY_API}${path}`, body === undefined ? { credentials: 'same-origin' } : { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`passkey ${path} answered ${response.status}`);
  return response.json();
}

/** The login page's passkey button: the authenticator signs the server's challenge, better-auth makes the session. */
export function PasskeySignIn({ redirectTo }: { redirectTo: string }) {
  const scripts = useScripts();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const optionsJSON = (await api('/generate-authenticate-options')) as Parameters<typeof startAuthentication>[0]['optionsJSON'];
      await api('/verify-authentication', { response: await startAuthentication({ optionsJSON }) });
      window.location.assign(redirectTo);
    } catch {
      setError(MESSAGES.passkeySignInFailed);
      setBusy(false);
    }
  };
  if (!scripts) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="passkey-sign-in">
      <button type="button" className="btn btn-outline w-full" onClick={() => void signIn()} disabled={busy}>{MESSAGES.passkeySignInButton}</button>
      {error ? <p role="alert" className="text-sm font-medium text-error">{error}</p> : null}
    </div>
  );
}

export interface PasskeyItem {
  id: string;
  name: string;
  addedAt: string | null;
}

/** The account page's passkeys: the list with a remove button each, and adding one on this device. */
export function PasskeysSection({ passkeys, removeError }: { passkeys: PasskeyItem[]; removeError?: string }) {
  const scripts = useScripts();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [name, setName] = useState('');
  const [state, setState] = useState<{ busy: boolean; message: string | null; failed: boolean }>({ busy: false, message: null, failed: false });
  const add = async () => {
    setState({ busy: true, message: null, failed: false });
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const optionsJSON = (await api('/generate-register-options')) as Parameters<typeof startRegistration>[0]['optionsJSON'];
      const response = await startRegistration({ optionsJSON });
      await api('/verify-registration', { response, ...(name.trim() ? { name: name.trim() } : {}) });
      setName('');
      setState({ busy: false, message: MESSAGES.passkeyAdded, failed: false });
      await revalidator.revalidate();
    } catch {
      setState({ busy: false, message: MESSAGES.passkeyFailed, failed: true });
    }
  };
  const removing = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  return (
    <section aria-labelledby="passkeys-heading" className="card mt-6 border border-base-300 bg-base-100 shadow-md" data-testid="passkeys">
      <div className="card-body gap-3">
        <h2 id="passkeys-heading" className="card-title">{MESSAGES.passkeysTitle}</h2>
        <p className="text-sm opacity-85">{MESSAGES.passkeysWhat}</p>
        {passkeys.length === 0 ? (
          <p data-testid="passkeys-none">{MESSAGES.passkeysNone}</p>
        ) : (
          <ul className="flex flex-col gap-2" data-testid="passkey-list">
            {passkeys.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 rounded-box border border-base-300 px-3 py-2">
                <span>
                  <span className="font-semibold">{p.name}</span>
                  {p.addedAt ? <AddedOn iso={p.addedAt} /> : null}
                </span>
                <Form method="post">
                  <input type="hidden" name="intent" value="passkey-remove" />
                  <input type="hidden" name="passkeyId" value={p.id} />
                  <button type="submit" className="btn btn-outline btn-error btn-sm" disabled={removing}>{MESSAGES.passkeyRemoveButton(p.name)}</button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        {removeError ? <p role="alert" className="text-sm font-medium text-error">{removeError}</p> : null}
        {scripts ? (
          <div className="flex flex-col gap-3" data-testid="passkey-add">
            <label className="form-control w-full">
              <span className="label-text mb-1">{MESSAGES.passkeyNameLabel}</span>
              <input className="input input-bordered w-full" name="passkeyName" maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <button type="button" className="btn btn-primary self-start" onClick={() => void add()} disabled={state.busy}>{MESSAGES.passkeyAddButton}</button>
          </div>
        ) : (
          <p className="text-sm opacity-85">{MESSAGES.passkeyNeedsScript}</p>
        )}
        {state.message ? (
          <p role={state.failed ? 'alert' : 'status'} className={state.failed ? 'text-sm font-medium text-error' : 'alert alert-success'} data-testid="passkey-message">{state.message}</p>
        ) : null}
      </div>
    </section>
  );
}

function AddedOn({ iso }: { iso: string }) {
  return <span className="block text-sm opacity-85">{MESSAGES.passkeyAddedOn(useLocalDateTime(iso))}</span>;
}
