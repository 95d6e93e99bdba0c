import { Link } from 'react-router';
import { MESSAGES } from '~/lib/texts/messages';

/** The error page for unknown routes (docs/product.md#page-frame). */
export function NotFound() {
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center" data-status={404}>
      <img src="/images/error.svg" alt="A paper boat drifting away under a setting sun" width={480} height={320} className="h-auto w-full max-w-md" />
      <h1 className="mt-8 text-4xl font-bold">{MESSAGES.notFoundHeading}</h1>
      <p className="mt-3 text-lg opacity-90">{MESSAGES.notFoundText}</p>
      <Link to="/" className="btn btn-primary mt-8">{MESSAGES.backToHome}</Link>
    </section>
  );
}

const OTHER_PAGES = {
  403: { heading: MESSAGES.forbiddenHeading, text: MESSAGES.forbidden },
  503: { heading: MESSAGES.unavailableHeading, text: MESSAGES.unavailable },
  500: { heading: MESSAGES.serverErrorHeading, text: MESSAGES.serverError },
};

/**
 * The root error boundary's page for a status (docs/decisions/037): 404 is the product's page;
 * 403 (not allowed) and 503 (the database is away: try again) say so; anything else is the
 * server error with the request's reference.
 */
export function ErrorPage({ status, requestId, detail }: { status: number; requestId?: string; detail?: string }) {
  if (status === 404) return <NotFound />;
  const { heading, text } = status === 403 || status === 503 ? OTHER_PAGES[status] : OTHER_PAGES[500];
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-center px-4 py-16 text-center" data-status={status}>
      <h1 className="text-4xl font-bold">{heading}</h1>
      <p className="mt-3 text-lg opacity-90">{text}</p>
      {requestId ? <p className="mt-2 text-sm opacity-80">Reference: <code>{requestId}</code></p> : null}
      {detail ? <pre className="mt-6 max-w-full overflow-auto rounded-box bg-base-200 p-4 text-left text-xs">{detail}</pre> : null}
      <Link to="/" className="btn btn-primary mt-8">{MESSAGES.backToHome}</Link>
    </section>
  );
}
