import type { ServerResponse } from 'node:http';
import { isServiceError, problem, type ServiceError, UnauthenticatedError } from '@platform/core';
import { sendJson } from './send-json.ts';

/** Errors of the database driver that mean "not reachable right now" rather than a bug: answered with 503. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '08006',
  '08001',
  // A statement past DATABASE_STATEMENT_TIMEOUT_SECONDS, and a database known not to answer (store's probe).
  '57014',
  'DATABASE_UNAVAILABLE',
]);

/** RFC 6750 §3: the challenge of a 401, naming the token's fault when one was presented. */
export const bearerChallenge = (error: UnauthenticatedError): string =>
  error.tokenPresented
    ? `Bearer error="invalid_token", error_description="${error.message.replace(/"/g, "'")}"`
    : 'Bearer';

export const isUnavailable = (error: unknown): boolean => {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|connect ECONNREFUSED|Client has encountered a connection error/.test(message)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
};

export type ProblemStatus = { status: number; detail: string; error?: ServiceError };

/** Maps anything thrown to the status and detail a client may see: never a stack, SQL text or secret. */
export const classify = (error: unknown): ProblemStatus => {
  if (isServiceError(error)) return { status: error.status, detail: error.message, error };
  if (isUnavailable(error)) {
    return { status: 503, detail: 'The service cannot reach its database right now; retry shortly.' };
  }
  return { status: 500, detail: 'An unexpected error occurred. Quote the traceId when reporting it.' };
};

export const sendProblem = (
  res: ServerResponse,
  traceId: string,
  error: unknown,
  /** Extra members beside the ProblemDetails fields (the tRPC envelope on /trpc paths). */
  extra?: (outcome: ProblemStatus) => Record<string, unknown>,
): ProblemStatus => {
  const outcome = classify(error);
  const { status, detail } = outcome;
  const serviceError = outcome.error;
  for (const [name, value] of Object.entries(serviceError?.headers ?? {})) res.setHeader(name, value);
  if (serviceError instanceof UnauthenticatedError)
    res.setHeader('WWW-Authenticate', bearerChallenge(serviceError));
  if (status === 503) res.setHeader('Retry-After', '5');
  res.statusCode = status;
  sendJson(res, {
    ...serviceError?.members,
    ...problem({ status, detail, traceId, errors: serviceError?.errors }),
    ...extra?.(outcome),
  });
  return outcome;
};
