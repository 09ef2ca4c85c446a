import type { Database, SecretBox } from '@platform/store';
import type { Logger } from 'pino';
import type { TokenVerifier } from '../auth/verifier.ts';
import type { AuthorizationCodeFlow, Caller, ServiceContext } from '../services/context.ts';
import type { ReadCache } from '../services/read-cache.ts';

/** What the whole application shares; each request adds its caller, trace id and clock. */
export type AppDeps = {
  readonly database: Database;
  readonly reads: ReadCache;
  readonly secrets: SecretBox;
  readonly verifier: TokenVerifier;
  readonly log: Logger;
  readonly serverVersion: string;
  readonly publicUrl: string;
  readonly authorizationCode?: AuthorizationCodeFlow | undefined;
  readonly connectorChanged?: ((connectorId: string) => void) | undefined;
  /** PROXY_ALLOW_PRIVATE_NETWORKS: plain http token and authorization endpoints are accepted too. */
  readonly allowPrivateNetworks?: boolean | undefined;
};

export const ANONYMOUS: Caller = { userId: '', roles: new Set() };

/** Values each request carries in `res.locals`. */
export type RequestLocals = {
  traceId: string;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  caller?: Caller;
  route?: string;
};

/** The context a service runs in, the same whichever transport called it. */
export const serviceContext = (deps: AppDeps, caller: Caller, traceId: string): ServiceContext => ({
  database: deps.database,
  reads: deps.reads,
  secrets: deps.secrets,
  caller,
  now: new Date(),
  traceId,
  log: deps.log,
  serverVersion: deps.serverVersion,
  publicUrl: deps.publicUrl,
  authorizationCode: deps.authorizationCode,
  connectorChanged: deps.connectorChanged,
  allowPrivateNetworks: deps.allowPrivateNetworks ?? false,
});
