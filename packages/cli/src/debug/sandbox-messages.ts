import type { ConnectorMethod, FetchRecord, InvocationResult, SandboxFailure } from '@platform/runtime';

/** What the debug page and its sandbox's worker (sandbox-worker.ts) say to each other. */
export type ToSandbox =
  | { type: 'load'; script: string; options: Record<string, unknown> }
  | { type: 'call'; id: number; method: ConnectorMethod; args: unknown[] };

/** Each about one call (`id`): its fetches and logError lines as they happen, then how it ended. */
export type FromSandbox =
  | { type: 'fetch'; id: number; record: FetchRecord }
  | { type: 'log'; id: number; message: string }
  | { type: 'done'; id: number; result: InvocationResult }
  | { type: 'failed'; id: number; failure: SandboxFailure };
