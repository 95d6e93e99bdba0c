import { useState } from 'react';
import { FEDERATION_TEXTS } from '~/lib/texts/federation';

/**
 * A writer's fediverse handle with a copy button, and "Follow from your server": the reader
 * names their server (or their handle there) and is sent to its own page for following this
 * handle, the one its WebFinger names or /authorize_interaction (docs/decisions/068, 081). A GET
 * form, so it works before JavaScript loads. Shown only while federation is on.
 */
export function FediverseHandle({ handle }: { handle: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(handle);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="mt-3 flex flex-col gap-2" data-testid="fediverse-handle">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="opacity-85">{FEDERATION_TEXTS.handleLabel}:</span>
        <code className="break-all rounded bg-base-200 px-1.5 py-0.5">{handle}</code>
        <button type="button" className="btn btn-ghost btn-xs" onClick={copy} aria-label={`${FEDERATION_TEXTS.copyHandle} ${handle}`}>
          {copied ? FEDERATION_TEXTS.handleCopied : FEDERATION_TEXTS.copyHandle}
        </button>
      </p>
      <form className="flex flex-wrap items-center gap-2" method="get" action="/follow-from-server">
        <input type="hidden" name="account" value={handle} />
        <label className="text-sm opacity-85" htmlFor="follow-from-server">
          {FEDERATION_TEXTS.followFromServer}
        </label>
        <input
          id="follow-from-server"
          className="input input-sm input-bordered w-48"
          name="server"
          required
          placeholder="mastodon.social"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="btn btn-sm btn-outline">
          {FEDERATION_TEXTS.followFromServerGo}
        </button>
      </form>
    </div>
  );
}
