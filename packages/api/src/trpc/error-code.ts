import { type ErrorCode, errorStatus, isServiceError } from '@platform/core';

const codeByStatus = new Map(
  Object.entries(errorStatus).map(([code, status]) => [status as number, code as ErrorCode]),
);

/**
 * The stable code every tRPC error carries as `data.errorCode` (docs/errors.md): a service error's own, otherwise
 * the code of its HTTP status, so that errors raised by tRPC itself (an unknown procedure, input that is not
 * JSON, the wrong method) carry one too.
 */
export const errorCodeOf = (error: unknown, httpStatus: number): ErrorCode =>
  isServiceError(error)
    ? error.code
    : (codeByStatus.get(httpStatus) ?? (httpStatus >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED'));
