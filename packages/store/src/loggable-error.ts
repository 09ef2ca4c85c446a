import { DrizzleQueryError } from 'drizzle-orm';

/** What of an error a log line may carry. */
export type LoggableError = {
  type: string;
  message: string;
  /** SQLSTATE of a database error, or a Node error code. */
  code?: string;
  /** The stack frames only: the first line of `stack` repeats the message. */
  stack?: string;
  cause?: LoggableError;
};

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** A driver's error from the database itself (node-postgres and PGlite both set `severity` and `routine`). */
const isDatabaseError = (error: Error): error is Error & Record<string, unknown> =>
  'severity' in error && typeof (error as { code?: unknown }).code === 'string';

const framesOf = (error: Error): string | undefined => {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.join('\n') : undefined;
};

/**
 * An error as it may be logged: never a query's parameters, which carry connector secrets and user data. A failed
 * query keeps its SQL text (placeholders only); a database error keeps its SQLSTATE and the names of the routine,
 * table and constraint, but not its message, which can quote a value (`invalid input syntax for type uuid: "…"`).
 */
export const loggableError = (error: unknown, depth = 0): LoggableError => {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a non-Error value was thrown' };
  const stack = framesOf(error);
  const cause = depth < 3 && error.cause !== undefined ? loggableError(error.cause, depth + 1) : undefined;
  const base = { type: error.name, ...(stack ? { stack } : {}), ...(cause ? { cause } : {}) };
  if (error instanceof DrizzleQueryError) return { ...base, message: `Failed query: ${error.query}` };
  if (isDatabaseError(error)) {
    const code = String(error.code);
    const names = ['routine', 'table', 'constraint']
      .filter((name) => typeof error[name] === 'string')
      .map((name) => `${name} ${error[name]}`);
    return {
      ...base,
      message: `database error ${code}${names.length ? ` (${names.join(', ')})` : ''}`,
      ...(SQLSTATE.test(code) ? { code } : {}),
    };
  }
  const code = (error as { code?: unknown }).code;
  return { ...base, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
};
