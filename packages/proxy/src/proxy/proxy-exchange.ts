import { type AuthUsage, ForbiddenError } from '@platform/core';
import type { RedirectMode } from '@platform/runtime';
import type { Agent } from 'undici';
import { type AuthConfig, isOAuth } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import type { AddressGuard } from '../net/address-guard.ts';
import type { TokenService } from '../tokens/token-service.ts';
import type { ConnectorConfig, ConnectorConfigLoader } from './connector-config.ts';
import {
  type ForwardedFrom,
  filterOutgoingHeaders,
  type OutgoingHeaders,
  responseHeaders,
} from './header-filter.ts';
import type { RequestBody } from './request-body.ts';
import {
  assertCredentialsAllowed,
  assertTargetAllowed,
  type Credential,
  hasAny,
  sendUpstream,
} from './send-upstream.ts';
import type { UpstreamExchange } from './upstream-exchange.ts';

/** Who calls and for which connector; the environment is already resolved and checked for visibility. */
export type ExchangeCaller = {
  environmentId: number;
  connectorId: string;
  caller: { userId: string; roles: ReadonlySet<string> };
};

export type ExchangeRequest = {
  /** Possibly shared with other requests (proxy-headers.ts): never changed. */
  url: Readonly<URL>;
  method: string;
  usage: AuthUsage;
  /** The caller's headers (lower-case names), `x-grafx-proxy-*` included: the exchange filters them. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Read only once the target is known to be allowed; at once when there is none or it is streamed. */
  body: () => RequestBody | Promise<RequestBody>;
  /** Where the request came from, for `forwardedHeaders`; none for a request made inside the platform. */
  forwardedFrom: ForwardedFrom | undefined;
  /** Fetch's redirect mode (send-upstream.ts); the HTTP proxy route follows. */
  redirect?: RedirectMode | undefined;
  /** A connector's fetch: its call's end aborts the exchange, upstream connection included (send-upstream.ts). */
  signal?: AbortSignal | undefined;
  /** Told as a request goes to the target, with whether it carries the connector's credentials. */
  onSent?: ((credentialsInjected: boolean) => void) | undefined;
};

export type ExchangeResponse = {
  status: number;
  headers: OutgoingHeaders;
  /** The target's body, to forward (HTTP) or collect (in process). */
  body: UpstreamExchange;
  /** Whether the connector's credentials went with the request that answered. */
  credentialsInjected: boolean;
};

export type ExchangeDeps = {
  loader: ConnectorConfigLoader;
  tokens: TokenService;
  agent: Agent;
  metrics: ProxyMetrics;
  guard: AddressGuard;
  timeoutMs: number;
  /** PROXY_EXCHANGE_TIMEOUT_SECONDS: a whole exchange with the target, redirects and body included. */
  exchangeTimeoutMs: number;
};

export type ProxyExchange = (caller: ExchangeCaller, request: ExchangeRequest) => Promise<ExchangeResponse>;

/** The credential to inject: at once for a static key (or none) and an OAuth token in memory, else once obtained. */
const credentialOf = (
  auth: AuthConfig | undefined,
  userId: string,
  tokens: TokenService,
): Credential | undefined | Promise<Credential> => {
  if (!auth) return undefined;
  if (auth.type === 'staticKey') return { name: auth.data.key, value: auth.data.value };
  return tokens.bearer(auth, userId);
};

const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

/** `X-GraFx-Proxy-Exclude-Headers: Authorization` asks for no injected credentials (pre-signed URLs). */
const excludesCredentials = (headers: ExchangeRequest['headers']): boolean => {
  const value = single(headers['x-grafx-proxy-exclude-headers']);
  // Nearly every request has no such header: nothing to split then.
  return value?.split(',').some((name) => name.trim().toLowerCase() === 'authorization') ?? false;
};

const targetHeaders = (request: ExchangeRequest, connector: ConnectorConfig): OutgoingHeaders => {
  const headers = filterOutgoingHeaders(
    request.headers,
    connector.forwardedHeaders ? request.forwardedFrom : undefined,
  );
  const userAgent = single(request.headers['x-grafx-proxy-user-agent'])?.trim();
  if (userAgent) headers['user-agent'] = userAgent;
  return headers;
};

/**
 * One proxied exchange, free of any transport: the role for server usage, the connector's configuration
 * (disabled, unknown), allowedDomains and the address guard, header filtering, credential injection for the usage
 * and the single 401 retry with a fresh token. The HTTP proxy route and the connector runtime's in-process fetch are
 * two thin adapters around it.
 */
export const createProxyExchange = (deps: ExchangeDeps): ProxyExchange => {
  const { loader, tokens, agent, metrics, guard, timeoutMs, exchangeTimeoutMs } = deps;

  return async ({ environmentId, connectorId, caller }, request) => {
    if (request.usage === 'server' && !caller.roles.has('connector:server')) {
      throw new ForbiddenError('The server usage of a connector needs the connector:server token role.');
    }
    // What is in memory is used without waiting: each turn of the event loop saved is a measurable part of a request.
    const connector =
      loader.cached(environmentId, connectorId, request.usage) ??
      (await loader.load(environmentId, connectorId, request.usage));
    // Refuse before reading the body or fetching a token for a target that will never be called, or that the
    // credentials and shared headers may not go to (a token endpoint's failure must not answer for that refusal).
    const verdicts = assertTargetAllowed(request.url, connector.allowedDomains, guard);
    const auth = excludesCredentials(request.headers) ? undefined : connector.auth;
    if (auth || hasAny(connector.sharedHeaders)) {
      assertCredentialsAllowed(request.url, connector.allowedDomains, guard, verdicts);
    }
    const headers = targetHeaders(request, connector);
    const reading = request.body();
    const body = reading instanceof Promise ? await reading : reading;
    const pending = credentialOf(auth, caller.userId, tokens);
    let credential: Credential | undefined = pending instanceof Promise ? await pending : pending;
    const observe = (status: number, seconds: number) => metrics.upstream(connector.id, status, seconds);
    const send = () =>
      sendUpstream(
        {
          url: request.url,
          method: request.method,
          headers,
          body,
          credential,
          sharedHeaders: connector.sharedHeaders,
          allowedDomains: connector.allowedDomains,
          redirect: request.redirect ?? 'follow',
          signal: request.signal,
          onSent: request.onSent,
        },
        { agent, guard, timeoutMs, exchangeTimeoutMs, observe },
      );

    let response: UpstreamExchange = await send();
    let unauthorized: string | undefined;
    if (response.statusCode === 401 && response.credentialSent && auth) {
      // Retry once with a fresh token, only when the body can be sent again (buffered ≤ 1 MiB or none).
      if (isOAuth(auth) && body.kind !== 'stream' && credential) {
        const rejected = credential.value.slice('Bearer '.length);
        // Undefined while renewals are backed off (tokens/token-backoff.ts): this 401 is then the answer.
        const renewed = await tokens.renew(auth, caller.userId, rejected).catch((error: unknown) => {
          response.discard();
          throw error;
        });
        if (renewed !== undefined) {
          response.discard();
          credential = { name: 'authorization', value: `Bearer ${renewed}` };
          response = await send();
        }
      } else if (isOAuth(auth) && credential) {
        // Not replayable: no retry now, but the next request must not reuse the refused token.
        const rejected = credential.value.slice('Bearer '.length);
        tokens.renew(auth, caller.userId, rejected).catch(() => {});
      }
      if (response.statusCode === 401 && response.credentialSent) {
        unauthorized = `${auth.type}, ${connector.id}`;
      }
    }
    const outgoing = responseHeaders(response.headers);
    if (unauthorized !== undefined) outgoing['x-grafx-unauthorized'] = unauthorized;
    return {
      status: response.statusCode,
      headers: outgoing,
      body: response,
      credentialsInjected: response.credentialSent,
    };
  };
};
