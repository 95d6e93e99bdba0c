import { Link } from 'react-router';
import { MESSAGES } from '~/lib/messages';

/** The error page for unknown routes (spec §2, §8). */
export function NotFound() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center">
      <img src="/images/error.svg" alt="A paper boat drifting away under a setting sun" width={480} height={320} className="h-auto w-full max-w-md" />
      <h1 className="mt-8 text-4xl font-bold">{MESSAGES.notFoundHeading}</h1>
      <p className="mt-3 text-lg opacity-90">{MESSAGES.notFoundText}</p>
      <Link to="/" className="btn btn-primary mt-8">{MESSAGES.backToHome}</Link>
    </section>
  );
}

export function ServerErrorPage({ requestId, detail }: { requestId?: string; detail?: string }) {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center">
      <h1 className="text-4xl font-bold">Something went wrong</h1>
      <p className="mt-3 text-lg opacity-90">{MESSAGES.serverError}</p>
      {requestId ? <p className="mt-2 text-sm opacity-80">Reference: <code>{requestId}</code></p> : null}
      {detail ? <pre className="mt-6 max-w-full overflow-auto rounded-box bg-base-200 p-4 text-left text-xs">{detail}</pre> : null}
      <Link to="/" className="btn btn-primary mt-8">{MESSAGES.backToHome}</Link>
    </section>
  );
}
