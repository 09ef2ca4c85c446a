/**
 * The database does not answer right now (refused, timed out, frozen): a transient condition, answered 503 with
 * `Retry-After` by the transports, never a bug. `code` is stable; the message names the cause and the setting
 * that bounds the wait, never the URL (it can hold a password).
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  readonly code = 'DATABASE_UNAVAILABLE';
}

export const isDatabaseUnavailable = (error: unknown): error is DatabaseUnavailableError =>
  error instanceof DatabaseUnavailableError;
