import { isServiceError, problem, type ServiceError, UnauthenticatedError } from '@platform/core';
import type { Response } from 'express';
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
]);

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
  res: Response,
  traceId: string,
  error: unknown,
  /** Extra members beside the ProblemDetails fields (the tRPC envelope on /trpc paths). */
  extra?: (outcome: ProblemStatus) => Record<string, unknown>,
): ProblemStatus => {
  const outcome = classify(error);
  const { status, detail } = outcome;
  const serviceError = outcome.error;
  if (serviceError?.headers) res.set(serviceError.headers);
  if (serviceError instanceof UnauthenticatedError) {
    res.set(
      'WWW-Authenticate',
      serviceError.tokenPresented
        ? `Bearer error="invalid_token", error_description="${serviceError.message.replace(/"/g, "'")}"`
        : 'Bearer',
    );
  }
  if (status === 503) res.set('Retry-After', '5');
  res.status(status);
  sendJson(res, {
    ...serviceError?.members,
    ...problem({ status, detail, traceId, errors: serviceError?.errors }),
    ...extra?.(outcome),
  });
  return outcome;
};
