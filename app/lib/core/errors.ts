/**
 * The one error type the domain throws. `code` is stable for clients; `message` is the product's
 * text where it has one (lib/messages.ts, docs/product.md#messages). Each transport maps it in one place.
 */
export type AppErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'insufficient_storage';

export const STATUS_BY_CODE: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  insufficient_storage: 507,
};

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.status = STATUS_BY_CODE[code];
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** Over a rate limit (`ctx.limit`): a 429 that knows when the window ends, for Retry-After. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super('rate_limited', message);
  }
}
