import { RuntimeError, type RuntimeErrorCode } from './errors.ts';

/**
 * A failed call as it crosses a worker's message port (a page running the sandbox in a Web Worker): what the page
 * shows of it, its stable code and the status a connector's `ConnectorHttpError` carried.
 */
export type SandboxFailure = { message: string; code?: string; connectorStatus?: number };

export const toSandboxFailure = (error: unknown): SandboxFailure => {
  const { code, connectorStatus } = (error ?? {}) as { code?: unknown; connectorStatus?: unknown };
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof connectorStatus === 'number' ? { connectorStatus } : {}),
  };
};

/** The error again on the page's side: a RuntimeError when it had a code, as the sandbox threw it. */
export const fromSandboxFailure = (failure: SandboxFailure): Error =>
  failure.code === undefined
    ? new Error(failure.message)
    : new RuntimeError(failure.code as RuntimeErrorCode, failure.message, {
        connectorStatus: failure.connectorStatus,
      });
