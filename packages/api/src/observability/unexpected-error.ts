import { isServiceError } from '@platform/core';
import { loggableError } from '@platform/store';
import type { Logger } from 'pino';
import { classify, isUnavailable } from '../rest/problem-response.ts';

/**
 * The one log line of an answer 5xx that no service chose (a bug, a database fault): its cause with the stack,
 * under the traceId the client was given, so a report quoting the traceId finds it. REST and tRPC alike; the
 * client sees only a generic detail (docs/errors.md). A database that does not answer is expected from time to time
 * (docs/configuration.md): the request line says 503, and a stack per refused request would only slow the server.
 */
export const logUnexpectedError = (log: Logger, traceId: string | undefined, error: unknown): void => {
  if (isServiceError(error) || isUnavailable(error) || classify(error).status < 500) return;
  log.error({ traceId, err: loggableError(error) }, 'unexpected error');
};
