/** Per-invocation limits. The server reads them from its configuration; other hosts take the defaults. */
export type RuntimeLimits = {
  /** QuickJS heap of one sandbox (RUNTIME_MEMORY_MB). */
  memoryBytes: number;
  /** Wall time of one invocation, fetches and sleeps included (RUNTIME_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** `runtime.fetch` calls per invocation (RUNTIME_MAX_FETCHES). */
  maxFetches: number;
  /** One response body. */
  maxResponseBytes: number;
  /** The interpreter's stack: deep recursion stops here with STACK_LIMIT instead of overflowing the host. */
  stackBytes: number;
};

const MiB = 1024 * 1024;

export const defaultLimits: RuntimeLimits = Object.freeze({
  memoryBytes: 64 * MiB,
  timeoutMs: 30_000,
  maxFetches: 100,
  maxResponseBytes: 50 * MiB,
  stackBytes: 256 * 1024,
});
