import type { ProblemDetails } from '@platform/core';

/**
 * Stable codes: the exit status and the `--json` error output derive from them, never from messages.
 * USAGE: the command line or a file it names is wrong (exit 2); nothing was sent.
 * NOT_LOGGED_IN / SESSION_EXPIRED: no usable credentials (exit 2); the fix is on the user's side.
 * SERVER_ERROR: the platform answered with an error (exit 1).
 * NETWORK_ERROR: the platform could not be reached (exit 1).
 * LOGIN_FAILED: the identity provider refused or the device code expired (exit 1).
 * CONNECTOR_FAILED: a local command ran the connector and it failed: it threw, hit a limit, or a test failed (exit 1).
 */
export type CliErrorCode =
  | 'USAGE'
  | 'NOT_LOGGED_IN'
  | 'SESSION_EXPIRED'
  | 'SERVER_ERROR'
  | 'NETWORK_ERROR'
  | 'LOGIN_FAILED'
  | 'CONNECTOR_FAILED';

export const exitCodeOf = (code: CliErrorCode): 1 | 2 =>
  code === 'USAGE' || code === 'NOT_LOGGED_IN' || code === 'SESSION_EXPIRED' ? 2 : 1;

/** `message` is one line for a person: what is wrong, then how to fix it. */
export class CliError extends Error {
  readonly code: CliErrorCode;
  /** Extra lines printed only with `--verbose`. */
  readonly details: readonly string[];

  constructor(code: CliErrorCode, message: string, options: { details?: string[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'CliError';
    this.code = code;
    this.details = options.details ?? [];
  }

  get exitCode(): 1 | 2 {
    return exitCodeOf(this.code);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super('USAGE', message);
    this.name = 'UsageError';
  }
}

/** The platform answered with a status outside 2xx; `problem` is its ProblemDetails body when it sent one. */
export class ServerError extends CliError {
  readonly status: number;
  readonly problem: ProblemDetails | undefined;

  constructor(status: number, message: string, problem: ProblemDetails | undefined, details: string[]) {
    super('SERVER_ERROR', message, { details });
    this.name = 'ServerError';
    this.status = status;
    this.problem = problem;
  }
}
