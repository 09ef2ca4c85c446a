/**
 * @platform/proxy — the connector proxy (docs/connector-auth.md, docs/environment-api.md).
 *
 * Mounting (apps/server): for any method on
 * `/grafx/api/v1/environment/{environment}/connectors/{connectorId}/proxy`, authenticate the caller
 * (`platform:read` and visibility of the environment, whatever the method), resolve `{environment}` to its
 * database id, then `await proxy.handle(req, res, { environmentId, connectorId, caller, traceId })`.
 * Mount it before any body parser: the handler reads (and streams) the raw request body itself.
 *
 * Errors: `handle` never rejects. It writes every error itself as ProblemDetails (`application/json`,
 * `traceId`, extra headers such as `X-GRAFX-UNAUTHORIZED`): 400 bad proxy headers, 401 authorization code
 * login needed, 403 connector:server role missing / connector disabled / host not in allowedDomains /
 * non-public address (target, redirect hop or token endpoint), 404 connector not in the environment,
 * 502 target or token endpoint failure (naming the cause, never a secret), 504 target timeout. Once the
 * target's response has started, a later failure can only cut the response short.
 *
 * `proxy.tokens.login / complete / logout` (the authorization code endpoints) instead throw core's
 * ServiceErrors, for the server's usual ProblemDetails mapping; `redirect` reads the provider's callback and
 * answers what the page shows (it stores nothing).
 */
export type { AuthConfig, OAuthConfig } from './auth-config.ts';
export { type ConnectorProxy, createProxy, type ProxyOptions } from './create-proxy.ts';
export {
  createProxyMetrics,
  MAX_CONNECTOR_SERIES,
  metricsWithoutConnectors,
  type ProxyMetrics,
} from './metrics.ts';
export { isPublicAddress } from './net/address-policy.ts';
export type { ConnectorSecretsQuery } from './proxy/connector-secrets.ts';
export type { ProxyRequestContext } from './proxy/handle-proxy-request.ts';
export type { ExchangeCaller } from './proxy/proxy-exchange.ts';
export type {
  CompleteContext,
  LoginContext,
  LogoutContext,
  RedirectContext,
  RedirectOutcome,
} from './tokens/authorization-code.ts';
export type { TokenService } from './tokens/token-service.ts';
