import { AsyncLocalStorage } from 'node:async_hooks';
import type { FederationSettings } from './federation-registry.server';

/**
 * Every request the federation makes to another server ends within a bound of ours
 * (docs/decisions/100). Fedify 2.3.6 sends deliveries and fetches documents with the global
 * `fetch` and no signal, so a peer that accepts the connection and never answers held a request
 * for undici's own limits (300 s for the headers, 300 s between two parts of the body); one such
 * peer stalled every delivery behind it while readers pace them one at a time (decision 094).
 *
 * Federation work runs in a scope (`withRequestDeadline`); while it does, the global `fetch`,
 * wrapped once here, gives each request a timeout signal beside any signal it already had. Outside
 * a scope (sign-in with Google, anything not federation) `fetch` is as Node made it.
 */

/**
 * The most one outgoing federation request may take, connection to the answer's last byte, as
 * Mastodon gives a peer 30 s to answer. The connection itself has undici's 10 s within that.
 */
export const FEDERATION_REQUEST_TIMEOUT_MS = 30_000;

const scope = new AsyncLocalStorage<number>();
let plainFetch: typeof fetch | null = null;

function fetchWithinDeadline(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const ms = scope.getStore();
  if (ms === undefined) return plainFetch!(input, init);
  // A signal in `init` replaces the request's own, so the one given is kept beside ours.
  const given = init?.signal ?? (input instanceof Request ? input.signal : undefined);
  const deadline = AbortSignal.timeout(ms);
  return plainFetch!(input, { ...init, signal: given ? AbortSignal.any([given, deadline]) : deadline });
}

/**
 * Runs `work` (a Fedify message, a request Fedify answers, a lookup of ours) with every request it
 * makes bounded by FEDERATION_REQUEST_TIMEOUT_MS, or by the settings' test-only shorter bound.
 */
export function withRequestDeadline<T>(settings: Pick<FederationSettings, 'requestTimeoutMs'>, work: () => T): T {
  if (!plainFetch) {
    plainFetch = globalThis.fetch;
    globalThis.fetch = fetchWithinDeadline;
  }
  return scope.run(settings.requestTimeoutMs ?? FEDERATION_REQUEST_TIMEOUT_MS, work);
}
