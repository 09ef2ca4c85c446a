import type { AuthUsage } from '@platform/core';
import type { ConnectorMethod, FetchRecord, InvocationResult, RuntimeErrorCode } from '@platform/runtime';
import type { Caller } from '../context.ts';

/** One call of a published connector's method, as the server's runtime pool takes it. */
export type Invocation = {
  environmentId: number;
  /** The environment's subscription: the runtime shares its capacity fairly between subscriptions. */
  subscriptionId: string;
  connectorId: string;
  /** Changes with every republish: sessions are kept under id and version. */
  version: string;
  script: string;
  options: Record<string, unknown>;
  /** Its token's issuer and subject name the caller whose session (warm instance) the call runs in. */
  caller: Caller;
  usage: AuthUsage;
  method: ConnectorMethod;
  args: unknown[];
  callOptions: Record<string, unknown>;
};

export type InvocationOutcome = {
  result: InvocationResult | undefined;
  error: { code: RuntimeErrorCode; message: string; connectorStatus?: number | undefined } | undefined;
  fetches: FetchRecord[];
  durationMs: number;
  /**
   * The messages the connector passed to `runtime.logError` during the call, oldest first. The services redact and
   * bound them, then write them to the server log and the activity (clean-outcome.ts).
   */
  logs?: string[] | undefined;
};

/**
 * The connector runtime as the services see it (the server composes it: sandboxes in worker threads, fetches through
 * the proxy's exchange in process). `invoke` throws a ServiceError UNAVAILABLE when its queue is full.
 */
export type ConnectorRuntimePort = {
  invoke(invocation: Invocation): Promise<InvocationOutcome>;
  /** Publish and republish: the script loads as a module with a default class, or RuntimeError says why. */
  check(script: string): Promise<void>;
  /**
   * A version just published and enabled: its first instance may be loaded now, ahead of its first call. Best effort:
   * nothing is answered, and a runtime may do nothing.
   */
  prepare?(version: PreparedVersion): void;
};

/** What an instance of a published version is loaded from: the fields of an Invocation that do not name a caller. */
export type PreparedVersion = Pick<Invocation, 'connectorId' | 'version' | 'script' | 'options'>;
