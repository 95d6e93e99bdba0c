import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Logger } from 'pino';
import { isClientAbort, isDatabaseUnavailable } from '~/db/errors.server';
import { isAppError, RateLimitedError } from '~/lib/core/errors';
import { MESSAGES } from '~/lib/texts/messages';

export const RETRY_AFTER_SECONDS = 5;

/** The one error mapper for the JSON API: AppError → its status; anything else → a logged 500. */
export function apiErrorHandler(log: Logger) {
  return (error: Error, c: Context) => {
    if (isAppError(error)) {
      if (error instanceof RateLimitedError) for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json({ message: error.message, code: error.code, ...(error.field ? { field: error.field } : {}) }, error.status as 400);
    }
    if (isClientAbort(error)) return c.json({ message: MESSAGES.bodyCutOff, code: 'body_cut_off' }, 400);
    if (isDatabaseUnavailable(error)) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return c.json({ message: MESSAGES.unavailable, code: 'unavailable' }, 503);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return c.json({ message: error.message || 'Bad request' }, error.status);
    }
    const requestId = c.get('requestId') as string | undefined;
    log.error({ err: error, reqId: requestId }, 'unhandled API error');
    return c.json({ message: MESSAGES.serverError, requestId }, 500);
  };
}
