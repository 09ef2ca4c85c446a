import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { logUnexpectedError } from '../observability/unexpected-error.ts';
import { closeIfBodyUnread } from './close-unread.ts';
import { type ProblemStatus, sendProblem } from './problem-response.ts';

/**
 * The answer to anything a route threw (docs/errors.md): a ProblemDetails body, the connection closed when the
 * request's body was left unread, and the cause logged under the traceId when no service chose the error. An answer
 * already under way can only be cut.
 */
export const answerError = (
  log: Logger,
  req: IncomingMessage,
  res: ServerResponse,
  traceId: string,
  error: unknown,
  extra?: (outcome: ProblemStatus) => Record<string, unknown>,
): void => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  closeIfBodyUnread(req, res);
  sendProblem(res, traceId, error, extra);
  logUnexpectedError(log, traceId, error);
};
