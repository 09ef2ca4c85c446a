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
      /** Connector id and version: the worker keeps each version's script under it. */
      key: string;
      /** The session (connector version, usage, caller): its calls share one warm instance on this worker. */
      session: string;
      /**
       * Sent only while the worker may not hold the script of `key` yet (a bundle is often hundreds of KB, and
       * every message is copied); a worker without it answers `need-script`.
       */
      script?: string | undefined;
      options: Record<string, unknown>;
      method: ConnectorMethod;
      args: unknown[];
      callOptions: Record<string, unknown>;
      /** Epoch ms: the invocation's wall time runs from when the pool took it, waiting included. */
      deadline: number;
    }
  | { type: 'check'; id: number; script: string }
  | {
      type: 'fetched';
      fetchId: number;
      /** Without `kept`'s `release` (the worker makes its own, which says `release` back). */
      response?: Omit<HostFetchResponse, 'kept'> | undefined;
      /**
       * A binary body the pool keeps on the main thread under `ref` (`response.body` is then empty): the sandbox never
       * reads it as text, and a `download` answering it is answered from there, so its bytes never cross to the worker.
       */
      kept?: { ref: string; bytes: number } | undefined;
      error?: WireError;
    }
  /** The session ended (idle, least recently used, or moved to another worker): its instance goes once no call runs. */
  | { type: 'end-session'; session: string }
  /**
   * A version just published: its instance is loaded now, ahead of any call, and kept for the first session of the
   * version that starts on this worker (runtime-worker.ts `prepared`). Nothing to answer.
   */
  | { type: 'prepare'; key: string; script: string; options: Record<string, unknown> };

/** A worker posts `FromWorker[]`: what one turn of its loop had to say. */
export type FromWorker =
  /** An invoke came without the script of a version this worker no longer (or never) held: send it again with it. */
  | { type: 'need-script'; id: number }
  | { type: 'fetch'; id: number; fetchId: number; request: HostFetchRequest }
  /** The call that started this fetch ended first: abort it, its upstream connection included. */
  | { type: 'abort-fetch'; fetchId: number }
  /** Bodies the pool keeps for this worker that no pointer names any more (sent once per turn of its loop). */
  | { type: 'release'; refs: string[] }
  | {
      type: 'done';
      id: number;
      result?: InvocationResult | undefined;
      error?: WireError | undefined;
      fetches: FetchRecord[];
      /** The call's `runtime.logError` messages, oldest first: at most LOG_MESSAGES_SENT. */
      logs: string[];
      durationMs: number;
    };

/** The services keep no more of one call's logError messages than this (clean-outcome.ts): no more cross. */
export const LOG_MESSAGES_SENT = 20;

/** Cells of the claim table: a job's cell is its id modulo this (far more than jobs in flight at once). */
export const CLAIM_CELLS = 4096;
/** A job's cell: posted and not yet begun; begun by the worker; withdrawn by the pool (which sends it elsewhere). */
export const POSTED = 0;
export const BEGUN = 1;
export const WITHDRAWN = 2;

export const claimCellOf = (id: number): number => id % CLAIM_CELLS;

export type WorkerData = {
  limits: RuntimeLimits;
  /** Instances of versions just published the worker keeps loaded at most (runtime-worker.ts `prepared`). */
  preparedMax: number;
  /**
   * Int32Array over a SharedArrayBuffer of CLAIM_CELLS: a worker begins a job only by moving its cell from POSTED to
   * BEGUN, and the pool takes back a job stranded behind a sandbox that holds its worker only by moving it from POSTED
   * to WITHDRAWN. One compare-and-swap each, so a job runs exactly once.
   */
  claims: SharedArrayBuffer;
  /**
   * BigInt64Array of SANDBOX_RUN_CELLS over a SharedArrayBuffer of the worker's own. RUN_SINCE: since when a sandbox
   * runs on its thread (epoch ms, `performance.timeOrigin + performance.now()`), 0 while none does; written by the
   * worker as runs begin and end, read by the pool: a run this old holds the thread (worker-handle.ts), while a worker
   * busy with many short runs, its messages queued or its thread waiting for a core, never shows one. RUN_TO_END: the
   * pool writes there the RUN_SINCE of a held run it needs ended (its thread is wanted by another caller of the
   * subscription); the worker ends that run, not a later one, and clears it. RUN_CPU_SINCE: the worker thread's CPU
   * time (µs) as that run began, -1 when unknown; THREAD_ID: the worker thread's id in /proc, 0 when unknown. With
   * them the pool tells a run that holds its thread (it used the CPU) from one that waited for a core (thread-cpu.ts).
   */
  sandboxRun: SharedArrayBuffer;
};

/** The cells of `WorkerData.sandboxRun`. */
export const RUN_SINCE = 0;
export const RUN_TO_END = 1;
export const RUN_CPU_SINCE = 2;
export const THREAD_ID = 3;
export const SANDBOX_RUN_CELLS = 4;
