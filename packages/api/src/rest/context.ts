import type { ServerResponse } from 'node:http';
import type { ConnectorActivityLog, Database, Fingerprint, SecretBox } from '@platform/store';
import type { Logger } from 'pino';
import type { TokenVerifier } from '../auth/verifier.ts';
import type { ConnectorRuntimePort } from '../services/connector-runtime/port.ts';
import type { AuthorizationCodeFlow, Caller, ConnectorSecrets, ServiceContext } from '../services/context.ts';
import type { ReadCache } from '../services/read-cache.ts';
import type { Identity } from './identify.ts';

/** What the whole application shares; each request adds its caller, trace id and clock. */
export type AppDeps = {
  readonly database: Database;
  readonly reads: ReadCache;
  readonly secrets: SecretBox;
  /** Keyed fingerprints of secrets for the audit trail (derived from SECRETS_KEY). */
  readonly fingerprint: Fingerprint;
  /** False only for the audit bench's anchor (a bench-only switch): writes record no audit entry. */
  readonly auditing?: boolean | undefined;
  readonly verifier: TokenVerifier;
  readonly log: Logger;
  readonly serverVersion: string;
  readonly publicUrl: string;
  readonly authorizationCode?: AuthorizationCodeFlow | undefined;
  readonly connectorChanged?: ((connectorId: string) => void) | undefined;
  readonly connectorDeleted?: ((connectorId: string) => void) | undefined;
  /** A client that stops sending in the middle of a request body is cut off after this long (docs/configuration.md). */
  readonly idleTimeoutMs?: number | undefined;
  /** PROXY_ALLOW_PRIVATE_NETWORKS: plain http token and authorization endpoints are accepted too. */
  readonly allowPrivateNetworks?: boolean | undefined;
  /** True once the server is shutting down: the readiness route answers 503. */
  readonly draining?: (() => boolean) | undefined;
  /** The connector runtime (docs/connector-runtime.md); without it, the run routes answer 503. */
  readonly connectorRuntime?: ConnectorRuntimePort | undefined;
  /** Where the runtime's invocations are recorded; composed with it. */
  readonly connectorActivity?: ConnectorActivityLog | undefined;
  /** The proxy's list of a connector's secrets, for redacting what a run's outcome says. */
  readonly connectorSecrets?: ConnectorSecrets | undefined;
};

export const ANONYMOUS: Caller = { userId: '', roles: new Set() };

/** Values each request carries in `res.locals`. */
export type RequestLocals = {
  traceId: string;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** The client's address, through trusted load balancers (client-address.ts). */
  clientAddress?: string | undefined;
  /** Set for every request before any route runs (identify.ts). */
  identity?: Identity;
  /** Who the request counts against, once `identity` is set (rate-limit.ts). */
  callerKey?: string;
  caller?: Caller;
  /** Charges decoded body bytes to the caller's budget; throws 429 when it is spent (body-budget.ts). */
  chargeBody?: (bytes: number) => void;
  route?: string;
  /** Calls a tRPC request holds (a batch holds several); each counts for the rate limit and logs its own line. */
  calls?: number;
  /** The tRPC body was scanned and holds no escape of U+0000 or a surrogate (read-body.ts). */
  bodyTextChecked?: boolean;
  /** The outcome of each call of a tRPC request, as its log lines tell it. */
  callLog?: { path: string; status: number }[];
};

/** A response carrying its request's values: the front door sets `locals` before anything else runs. */
export type LocalsResponse = ServerResponse & { locals: RequestLocals };

/** The locals of a request, by its response. */
export const localsOf = (res: ServerResponse): RequestLocals => (res as LocalsResponse).locals;

/** The context a service runs in, the same whichever transport called it. */
export const serviceContext = (
  deps: AppDeps,
  caller: Caller,
  traceId: string,
  sourceAddress: string | undefined,
): ServiceContext => ({
  database: deps.database,
  reads: deps.reads,
  secrets: deps.secrets,
  caller,
  now: new Date(),
  traceId,
  issuer: deps.verifier.issuer,
  sourceAddress: sourceAddress ?? 'unknown',
  fingerprint: deps.fingerprint,
  auditing: deps.auditing ?? true,
  log: deps.log,
  serverVersion: deps.serverVersion,
  publicUrl: deps.publicUrl,
  authorizationCode: deps.authorizationCode,
  connectorChanged: deps.connectorChanged,
  connectorDeleted: deps.connectorDeleted,
  allowPrivateNetworks: deps.allowPrivateNetworks ?? false,
  draining: deps.draining,
  connectorRuntime: deps.connectorRuntime,
  connectorActivity: deps.connectorActivity,
  connectorSecrets: deps.connectorSecrets,
});
