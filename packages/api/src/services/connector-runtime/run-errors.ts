import { ServiceError } from '@platform/core';
import type { InvocationOutcome } from './port.ts';

type RunError = NonNullable<InvocationOutcome['error']>;

const limitNames = {
  MEMORY_LIMIT: 'memory',
  STACK_LIMIT: 'stack',
  FETCH_LIMIT: 'fetch count',
  RESPONSE_TOO_LARGE: 'response size',
} as const;

/**
 * A failed run as a ProblemDetails (docs/connector-runtime.md "Errors"): the runtime's code travels as `code`,
 * a ConnectorHttpError's status as `connectorStatus`, a tripped limit's name as `limit`.
 */
export const runError = (error: RunError): ServiceError => {
  const members: Record<string, string | number> = { code: error.code };
  switch (error.code) {
    case 'METHOD_MISSING':
      return new ServiceError('VALIDATION_FAILED', error.message, { members });
    case 'SCRIPT_INVALID':
    case 'NO_DEFAULT_CLASS':
      return new ServiceError('UNPROCESSABLE', `The connector's script does not load: ${error.message}`, {
        members,
      });
    case 'TIME_LIMIT':
      return new ServiceError('UPSTREAM_TIMEOUT', error.message, { members });
    case 'CONNECTOR_HTTP_ERROR':
      if (error.connectorStatus !== undefined) members.connectorStatus = error.connectorStatus;
      return new ServiceError('UPSTREAM_FAILED', `The connector failed: ${error.message}`, { members });
    case 'MEMORY_LIMIT':
    case 'STACK_LIMIT':
    case 'FETCH_LIMIT':
    case 'RESPONSE_TOO_LARGE':
      members.limit = limitNames[error.code];
      return new ServiceError('UPSTREAM_FAILED', error.message, { members });
    case 'FETCH_REFUSED':
      return new ServiceError(
        'UPSTREAM_FAILED',
        `The proxy refused a fetch of the connector: ${error.message}`,
        {
          members,
        },
      );
    default:
      return new ServiceError('UPSTREAM_FAILED', `The connector failed: ${error.message}`, { members });
  }
};

/** The status a failed run answers with, for the activity log. */
export const runStatus = (error: RunError | undefined): number =>
  error === undefined ? 200 : runError(error).status;
