const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  'SQLITE_BUSY',
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
]);

/**
 * True when the failure is the client's: its request body stopped before it was whole (a
 * malformed chunked body, a connection closed mid-upload). Node reports that as ECONNRESET
 * "aborted" on the request, the code a lost database connection also has, so it is told apart
 * here: such a request is answered (if anyone still listens) and logged as a 4xx, never as an outage.
 */
export function isClientAbort(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === 'ECONNRESET' && e.message === 'aborted') return true;
    if (e.code === 'ERR_STREAM_PREMATURE_CLOSE' || e.name === 'AbortError') return true;
  }
  return false;
}

/**
 * True when a query failed because the database could not be reached or could not write (a
 * restart, a full disk), as opposed to a bug or a constraint: such failures answer 503, so
 * clients and load balancers retry instead of reporting a server fault.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isClientAbort(error)) return false;
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && (UNAVAILABLE_CODES.has(e.code) || e.code.startsWith('08'))) return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(e.message)) return true;
  }
  return false;
}
