import { data, redirect } from 'react-router';
import { isDatabaseUnavailable } from '~/db/errors.server';
import { type AppError, type AppErrorCode, isAppError } from '~/lib/core/errors';
import { withFlash } from './flash.server';

/**
 * The one mapping of a use case's failure for a page loader or action
 * (docs/decisions/037). An AppError is a refusal the visitor can act on, and is handed back for
 * the page to answer (the image store's 503/507 included: the form says why, decision 017),
 * unless its code is in `boundary`, which sends it to the root error boundary with its status.
 * A database outage is the 503 page (with Retry-After, set by the HTTP layer); anything else —
 * a bug — is thrown on as it is, a 500.
 */
export function pageRefusal(error: unknown, { boundary = [] as readonly AppErrorCode[] } = {}): AppError {
  if (isDatabaseUnavailable(error)) throw data(null, { status: 503 });
  if (!isAppError(error)) throw error;
  if (boundary.includes(error.code)) throw data(null, { status: error.status });
  return error;
}

/**
 * A loader's failure as the error page with its status: not found → 404, forbidden → 403 (or
 * 404 with `hideForbidden`, for a screen that does not exist to the caller), an outage → 503.
 */
export function errorPage(error: unknown, { hideForbidden = false } = {}): never {
  const refused = pageRefusal(error);
  throw data(null, { status: hideForbidden && refused.code === 'forbidden' ? 404 : refused.status });
}

/** Back to `path` with the refusal's text as an error toast (buttons that post and return). */
export function backWithRefusal(error: unknown, path: string): Response {
  return redirect(path, { headers: withFlash({ type: 'toast', kind: 'error', text: pageRefusal(error).message }) });
}
