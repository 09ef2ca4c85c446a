import { isServiceError } from '@platform/core';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { ProblemStatus } from '../rest/problem-response.ts';
import { errorCodeOf } from './error-code.ts';
import { trpcCode } from './router.ts';

/**
 * The tRPC error envelope of an error raised before tRPC's own handler runs (rate limit, batch limit, a body
 * refused on read): added beside the ProblemDetails fields, which allow additional properties, so that a tRPC
 * client reads it as its own error (code, httpStatus, traceId) and a plain HTTP client still sees ProblemDetails.
 * A batch (`?batch=1`) expects an array, which no ProblemDetails can be: its callers get the ProblemDetails only.
 */
export const trpcErrorEnvelope = (path: string, outcome: ProblemStatus, traceId: string) => {
  const key = trpcCode[outcome.status] ?? 'INTERNAL_SERVER_ERROR';
  const error = outcome.error;
  return {
    error: {
      message: outcome.detail,
      code: TRPC_ERROR_CODES_BY_KEY[key],
      data: {
        code: key,
        httpStatus: outcome.status,
        path,
        traceId,
        errorCode: errorCodeOf(error, outcome.status),
        ...(isServiceError(error) && error.errors ? { errors: error.errors } : {}),
      },
    },
  };
};
