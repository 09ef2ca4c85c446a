import type { ServerResponse } from 'node:http';
import { isServiceError, problem, proxiedResponseHeaders } from '@platform/core';
import { loggableError } from '@platform/store';
import type { Logger } from 'pino';

/** On every answer the proxy makes itself (never on a target's): the error's stable code. */
export const PROXY_ERROR_HEADER = 'x-grafx-proxy-error';

/**
 * Writes an error as ProblemDetails (docs/errors.md). ServiceErrors carry messages written for the caller;
 * anything else is logged and answered with a generic 500 so no internal detail leaks.
 */
export const writeProblem = (res: ServerResponse, error: unknown, traceId: string, log: Logger): void => {
  if (res.headersSent) {
    // The target's status line is already out: all that is left is to cut the response short.
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  let status = 500;
  let code = 'INTERNAL';
  let detail = 'The proxy failed unexpectedly; try again later.';
  let extra: Record<string, string> = {};
  let errors: Record<string, string[]> | undefined;
  if (isServiceError(error)) {
    status = error.status;
    code = error.code;
    detail = error.message;
    extra = error.headers ?? {};
    errors = error.errors;
    if (status >= 500) log.warn({ traceId, status, detail }, 'connector proxy upstream failure');
  } else {
    log.error({ traceId, err: loggableError(error) }, 'connector proxy failed');
  }
  const body = JSON.stringify(problem({ status, detail, traceId, errors }));
  res.writeHead(status, {
    ...extra,
    ...proxiedResponseHeaders,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    // The proxy's own answer, not the target's: a client (the console's Try it) tells the two apart by it.
    [PROXY_ERROR_HEADER]: code,
  });
  res.end(body);
};
