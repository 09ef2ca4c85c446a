import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthUsage } from '@platform/core';
import type { HostFetch } from '@platform/runtime';
import type { Database, SecretBox } from '@platform/store';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createProxyMetrics } from './metrics.ts';
import { createAddressGuard } from './net/address-guard.ts';
import { createUpstreamAgent } from './net/upstream-agent.ts';
import { createConnectorConfigLoader } from './proxy/connector-config.ts';
import { type ConnectorSecretsQuery, createConnectorSecrets } from './proxy/connector-secrets.ts';
import {
  createProxyHandler,
  type ForwardedChain,
  type ProxyRequestContext,
} from './proxy/handle-proxy-request.ts';
import { createInProcessFetch } from './proxy/in-process-fetch.ts';
import { createProxyExchange, type ExchangeCaller } from './proxy/proxy-exchange.ts';
import { createTokenService, type TokenService } from './tokens/token-service.ts';

export type ProxyOptions = {
  database: Database;
  secrets: SecretBox;
  log: Logger;
  metricsRegistry: Registry;
  /** docs/configuration.md PROXY_ALLOW_PRIVATE_NETWORKS: loopback and private targets and token endpoints allowed. */
  allowPrivateNetworks: boolean;
  /** docs/configuration.md PUBLIC_URL: authorization code redirect URIs are built from it. */
  publicUrl: string;
  /** Connect, response-headers and body-idle timeout for targets. Default 30 s. */
  fetchTimeoutMs?: number;
  /** A whole exchange with a target, body included, ends after this. Default 60 s. */
  exchangeTimeoutMs?: number;
  /**
   * docs/configuration.md TOKEN_TIMEOUT_SECONDS: the most a token request may take, waiting for this endpoint's
   * free slot included; then 504 `UPSTREAM_TIMEOUT`, remembered for a few seconds like any token failure. Default 10 s.
   */
  tokenTimeoutMs?: number;
  /**
   * How long a connector's decoded configuration is reused between requests. Default 1000 ms: a change
   * reaches every replica within that time, and this process at once through `invalidateConnector`.
   * 0 reads the store on every request (one prepared query; secrets are only opened again when changed).
   */
  configCacheMs?: number;
  /**
  /**
   * True while the store's change notifications reach this process and are handed to `configurationChanged`
   * (the platform's change watch): configurations are then kept until a change rather than `configCacheMs`.
   */
  changesWatched?: () => boolean;
  /**
   * Development only (apps/server sets it when it serves the stand-in API): the `http://<ip>:<port>` origin whose
   * `/dev/stand-in/` paths the proxy may reach although loopback, its token endpoint over plain http.
   */
  standInOrigin?: string;
  /**
   * The addresses a request came through, oldest first, for `X-Forwarded-For` (connectors with `forwardedHeaders`):
   * the server continues the chain its trusted load balancers vouch for (TRUSTED_PROXIES). Default: the peer alone.
   */
  forwardedChain?: ForwardedChain;
  /** Which resolved addresses count as public; tests on loopback replace it. Default: IANA special-purpose ranges excluded. */
  isPublicAddress?: (address: string) => boolean;
};

export type ConnectorProxy = {
  /** Proxies one request (docs/environment-api.md). Never rejects: errors are written as ProblemDetails. */
  handle(req: IncomingMessage, res: ServerResponse, ctx: ProxyRequestContext): Promise<void>;
  /** The connector runtime's `runtime.fetch` on the server: the same exchange as `handle`, in process. */
  fetchFor(caller: ExchangeCaller, usage: AuthUsage): HostFetch;
  tokens: TokenService;
  /**
   * Every secret the proxy injects or holds for a connector, usage and caller (proxy/connector-secrets.ts): the
   * services redact a run's outcome of them before it reaches a caller, the activity or the log.
   */
  secretsFor(query: ConnectorSecretsQuery): Promise<string[]>;
  /**
   * Call after changing a connector (republish, PATCH, DELETE, its auth or shared headers): this process then
   * reads its configuration afresh on the very next request; other replicas within `configCacheMs`, or as soon as
   * their change watch hears of it (`configurationChanged`).
   */
  invalidateConnector(connectorId: string): void;
  /** The store announced a change of some connector's configuration (any replica): every one is read afresh. */
  configurationChanged(): void;
  /** Call after deleting a connector: besides `invalidateConnector`, its metric series are removed. */
  forgetConnector(connectorId: string): void;
  close(): Promise<void>;
};

export const createProxy = (options: ProxyOptions): ConnectorProxy => {
  const { database, secrets, log, metricsRegistry, allowPrivateNetworks, publicUrl } = options;
  const timeoutMs = options.fetchTimeoutMs ?? 30_000;
  const metrics = createProxyMetrics(metricsRegistry);
  const guard = createAddressGuard(allowPrivateNetworks, options.isPublicAddress, options.standInOrigin);
  const loader = createConnectorConfigLoader(
    database,
    secrets,
    options.configCacheMs ?? 1_000,
    options.changesWatched,
  );
  const targetAgent = createUpstreamAgent({ guard, timeoutMs, what: 'target' });
  const tokenTimeoutMs = options.tokenTimeoutMs ?? 10_000;
  const tokenAgent = createUpstreamAgent({ guard, timeoutMs: tokenTimeoutMs, what: 'token endpoint' });
  const tokens = createTokenService({
    database,
    secrets,
    log,
    metrics,
    loader,
    agent: tokenAgent,
    guard,
    tokenTimeoutMs,
    publicUrl,
  });
  const exchange = createProxyExchange({
    loader,
    tokens,
    agent: targetAgent,
    metrics,
    guard,
    timeoutMs,
    exchangeTimeoutMs: options.exchangeTimeoutMs ?? 60_000,
  });
  return {
    handle: createProxyHandler(exchange, log, options.forwardedChain),
    fetchFor: createInProcessFetch(exchange),
    tokens,
    secretsFor: createConnectorSecrets(loader, tokens),
    invalidateConnector: (connectorId) => loader.invalidate(connectorId),
    configurationChanged: () => loader.invalidateAll(),
    forgetConnector: (connectorId) => {
      loader.invalidate(connectorId);
      metrics.forgetConnector(connectorId);
    },
    async close() {
      await tokens.clear();
      // Destroyed, not closed: the server calls this once its callers are answered or cut, so an exchange still
      // waiting for a slow target has no one left to answer, and `close` would wait for it (up to the exchange
      // time limit) while the process holds its data folder.
      await Promise.all([targetAgent.destroy(), tokenAgent.destroy()]);
    },
  };
};
