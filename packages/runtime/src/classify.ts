import { RuntimeError } from './errors.ts';

/** An error as the sandbox describes it: `{name, message, status}` (status only for ConnectorHttpError). */
export type SandboxError = { name?: unknown; message?: unknown; status?: unknown };

/**
 * Turns what QuickJS reports into a typed error. The engine's own errors (an interrupt at the deadline, an exhausted
 * heap, a stack overflow) surface as InternalError/RangeError with fixed messages; everything else is the connector's.
 */
export const classifySandboxError = (
  described: SandboxError | null | undefined,
  limits: { memoryBytes: number; timeoutMs: number },
): RuntimeError => {
  // QuickJS throws `null` when it cannot even allocate its out-of-memory error.
  if (described === null || described === undefined) return memoryLimit(limits.memoryBytes);
  const name = typeof described.name === 'string' ? described.name : 'Error';
  const message =
    typeof described.message === 'string' ? described.message : String(described.message ?? 'unknown error');
  if (
    name === 'ConnectorHttpError' &&
    typeof described.status === 'number' &&
    Number.isFinite(described.status)
  ) {
    return new RuntimeError('CONNECTOR_HTTP_ERROR', message, { connectorStatus: described.status });
  }
  if (name === 'InternalError' && message === 'interrupted') return timeLimit(limits.timeoutMs);
  if (/out of memory/i.test(message)) return memoryLimit(limits.memoryBytes);
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

const memoryLimit = (memoryBytes: number): RuntimeError =>
  new RuntimeError(
    'MEMORY_LIMIT',
    `the connector exceeded the memory limit of ${Math.round(memoryBytes / 1048576)} MiB (RUNTIME_MEMORY_MB)`,
  );
