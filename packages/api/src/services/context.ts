import type { AuthUsage } from '@platform/core';
import type { ConnectorActivityLog, Database, Db, Fingerprint, SecretBox } from '@platform/store';
import type { Logger } from 'pino';
import type { ConnectorRuntimePort } from './connector-runtime/port.ts';
import type { ReadCache } from './read-cache.ts';

/** Who calls: the verified token's subject and roles (docs/authentication.md). */
export type Caller = {
  readonly userId: string;
  /** The token's issuer (`iss`); with `userId` (its `sub`) it names the caller, e.g. for connector sessions. */
  readonly issuer?: string | undefined;
  readonly roles: ReadonlySet<string>;
};

/**
 * The authorization-code flow of the connector proxy (docs/environment-api.md), handed in by the server that composes the
 * proxy; the api package stays free of the proxy's dependencies.
 */
export type AuthorizationCodeFlow = {
  login(ctx: {
    environmentId: number;
    connectorId: string;
    userId: string;
  }): Promise<{ authorizationUrl: string }>;
  redirect(ctx: {
    environmentId: number;
    connectorId: string;
    query: Record<string, string | string[] | undefined>;
  }): Promise<
    | { kind: 'code'; state: string; code: string }
    | { kind: 'refused'; state: string; error: string }
    | { kind: 'invalid' }
  >;
  complete(ctx: {
    environmentId: number;
    connectorId: string;
    userId: string;
    state: string;
    code: string;
    /** Runs in the transaction that stores the tokens (the audit entry commits with them or not at all). */
    within?: (tx: Db) => Promise<void>;
  }): Promise<void>;
  logout(ctx: {
    environmentId: number;
    connectorId: string;
    userId: string;
    /** Runs in the transaction that drops the tokens. */
    within?: (tx: Db) => Promise<void>;
  }): Promise<void>;
};

/** Everything a transport-free service needs; built once per request by each transport. */
export type ServiceContext = {
  readonly database: Database;
  /** Reads that may be answered from memory until the data behind them changes. */
  readonly reads: ReadCache;
  readonly secrets: SecretBox;
  readonly caller: Caller;
  readonly now: Date;
  readonly traceId: string;
  /** The issuer of the caller's token (the one issuer this server trusts): the audit trail's actor is issuer + subject. */
  readonly issuer: string;
  /** The client's address, through the trusted proxies (TRUSTED_PROXIES), as the rate limit sees it. */
  readonly sourceAddress: string;
  /** What the audit trail shows of a secret (docs/audit.md): a keyed fingerprint. */
  readonly fingerprint: Fingerprint;
  /** False only in the audit bench's anchor run (AUDIT_BENCH_OFF): writes then record no entry. */
  readonly auditing: boolean;
  readonly log: Logger;
  readonly serverVersion: string;
  readonly publicUrl: string;
  readonly authorizationCode?: AuthorizationCodeFlow | undefined;
  /** Tells the composed connector proxy that a connector's configuration changed, so its cache drops it now. */
  readonly connectorChanged?: ((connectorId: string) => void) | undefined;
  /** As `connectorChanged`, for a deleted connector: the proxy also removes its metric series. */
  readonly connectorDeleted?: ((connectorId: string) => void) | undefined;
  /** PROXY_ALLOW_PRIVATE_NETWORKS (docs/configuration.md): plain http token and authorization endpoints are accepted. */
  readonly allowPrivateNetworks?: boolean | undefined;
  /** True once the server is shutting down (SIGTERM): the readiness route answers 503 (docs/deployment.md). */
  readonly draining?: (() => boolean) | undefined;
  /** Runs published connectors (the server composes it); the run routes answer 503 without it. */
  readonly connectorRuntime?: ConnectorRuntimePort | undefined;
  /** The invocations' activity, written in batches off the request path; composed with the runtime. */
  readonly connectorActivity?: ConnectorActivityLog | undefined;
  /**
   * Every secret the composed proxy injects or holds for a connector, usage and caller: a run's outcome is redacted
   * of them before it reaches the caller, the activity or the log (docs/connector-runtime.md "Redaction").
   */
  readonly connectorSecrets?: ConnectorSecrets | undefined;
};

export type ConnectorSecrets = (query: {
  environmentId: number;
  connectorId: string;
  usage: AuthUsage;
  caller: Caller;
}) => Promise<readonly string[]>;

/** Every service has this shape; its input is path and query parameters flattened, plus `body` when it takes one. */
export type Service<I, O> = (ctx: ServiceContext, input: I) => Promise<O>;

export const isOperator = (caller: Caller): boolean => caller.roles.has('platform:admin');
