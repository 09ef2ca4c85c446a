/** Messages between the runtime pool (main thread) and its workers. Plain data only: they are structured-cloned. */
import type {
  ConnectorMethod,
  FetchRecord,
  HostFetchRequest,
  HostFetchResponse,
  InvocationResult,
  RuntimeErrorCode,
  RuntimeLimits,
} from '@platform/runtime';

export type WireError = {
  code?: RuntimeErrorCode | undefined;
  message: string;
  connectorStatus?: number | undefined;
};

export type ToWorker =
  | {
      type: 'invoke';
      id: number;
      /** Connector id and version: sandboxes are kept warm under it. */
      key: string;
      /**
       * Sent only while the worker may not hold the script of `key` yet (a bundle is often hundreds of KB, and
       * every message is copied); a worker without it answers `need-script`.
       */
      script?: string | undefined;
      options: Record<string, unknown>;
      method: ConnectorMethod;
      args: unknown[];
      callOptions: Record<string, unknown>;
    }
  | { type: 'check'; id: number; script: string }
  | { type: 'fetched'; fetchId: number; response?: HostFetchResponse; error?: WireError };

export type FromWorker =
  /** Sent every `ALIVE_INTERVAL_MS` while the worker has work and its event loop is free: a silent one is in a sandbox. */
  | { type: 'alive' }
  /** An invoke came without the script of a version this worker no longer (or never) held: send it again with it. */
  | { type: 'need-script'; id: number }
  | { type: 'fetch'; id: number; fetchId: number; request: HostFetchRequest }
  | {
      type: 'done';
      id: number;
      result?: InvocationResult | undefined;
      error?: WireError | undefined;
      fetches: FetchRecord[];
      durationMs: number;
    };

/** How often a worker with work says it is free to take more (its event loop turned). */
export const ALIVE_INTERVAL_MS = 100;

export type WorkerData = {
  limits: RuntimeLimits;
  /** Idle sandboxes the worker keeps warm, all versions together. */
  maxIdle: number;
};
