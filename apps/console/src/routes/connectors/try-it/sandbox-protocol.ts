import type { ConnectorMethod, FetchRecord, InvocationResult, SandboxFailure } from '@platform/runtime';

/** A connector's source as the platform serves it for Try it. */
export type Source = { script: string; options: Record<string, unknown>; version: string };

/** From the page to the sandbox's worker. */
export type ToSandbox =
  | { type: 'load'; source: Source; environment: string; connectorId: string }
  /** `token`: the signed-in user's platform token as the call starts; the worker keeps no other. */
  | { type: 'call'; id: number; method: ConnectorMethod; args: unknown[]; token: string | undefined };

/** From the sandbox's worker to the page, each about one call (`id`). */
export type FromSandbox =
  | { type: 'fetch'; id: number; record: FetchRecord }
  | { type: 'log'; id: number; message: string }
  | { type: 'done'; id: number; result: InvocationResult }
  | { type: 'failed'; id: number; failure: SandboxFailure };
