import { RuntimeError } from './errors.ts';

/** An error as the sandbox describes it: `{name, message, status}` (status only for ConnectorHttpError). */
export type SandboxError = { name?: unknown; message?: unknown; status?: unknown };

/**
 * Turns what QuickJS reports into a typed error. The engine's own errors (an interrupt at the deadline, an exhausted
 * heap, a stack overflow) surface as InternalError/RangeError with fixed messages; everything else is the connector's.
 */
export const classifySandboxError = (
  error: SandboxError,
  limits: { memoryBytes: number; timeoutMs: number },
) => {
  const name = typeof error.name === 'string' ? error.name : 'Error';
  const message =
    typeof error.message === 'string' ? error.message : String(error.message ?? 'unknown error');
  if (name === 'ConnectorHttpError' && typeof error.status === 'number' && Number.isFinite(error.status)) {
    return new RuntimeError('CONNECTOR_HTTP_ERROR', message, { connectorStatus: error.status });
  }
  if (name === 'InternalError' && message === 'interrupted') return timeLimit(limits.timeoutMs);
  if (message === 'out of memory' || (name === 'InternalError' && /out of memory/i.test(message))) {
    return new RuntimeError(
      'MEMORY_LIMIT',
      `the connector exceeded the memory limit of ${Math.round(limits.memoryBytes / 1048576)} MiB (RUNTIME_MEMORY_MB)`,
    );
  }
  if (/stack overflow|maximum call stack size exceeded/i.test(message)) {
    return new RuntimeError('STACK_LIMIT', 'the connector exceeded the stack limit (recursion too deep)');
  }
  return new RuntimeError('CONNECTOR_ERROR', `${name}: ${message}`);
};

export const timeLimit = (timeoutMs: number): RuntimeError =>
  new RuntimeError(
    'TIME_LIMIT',
    `the invocation exceeded the time limit of ${timeoutMs / 1000} s (RUNTIME_TIMEOUT_SECONDS), fetches included`,
  );
