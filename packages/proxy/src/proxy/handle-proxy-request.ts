import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForbiddenError } from '@platform/core';
import type { Logger } from 'pino';
import type { Agent } from 'undici';
import { type AuthConfig, isOAuth } from '../auth-config.ts';
import type { ProxyMetrics } from '../metrics.ts';
import type { AddressGuard } from '../net/address-guard.ts';
import type { TokenService } from '../tokens/token-service.ts';
import type { ConnectorConfigLoader } from './connector-config.ts';
import { outgoingHeaders, responseHeaders } from './header-filter.ts';
import { readProxyTarget } from './proxy-headers.ts';
import { readRequestBody } from './request-body.ts';
import { assertTargetAllowed, type Credential, sendUpstream } from './send-upstream.ts';
import type { UpstreamExchange } from './upstream-exchange.ts';
import { writeProblem } from './write-problem.ts';

export type ProxyRequestContext = {
  /** The environment's database id, already resolved and checked for visibility by the server. */
  environmentId: number;
  connectorId: string;
  caller: { userId: string; roles: ReadonlySet<string> };
  traceId: string;
};

export type ProxyHandlerDeps = {
  loader: ConnectorConfigLoader;
  tokens: TokenService;
  agent: Agent;
  metrics: ProxyMetrics;
  log: Logger;
  guard: AddressGuard;
  timeoutMs: number;
  exchangeTimeoutMs: number;
};

const credentialOf = async (auth: AuthConfig | undefined, userId: string, tokens: TokenService) => {
  if (!auth) return undefined;
  if (auth.type === 'staticKey') return { name: auth.data.key, value: auth.data.value };
  return { name: 'authorization', value: `Bearer ${await tokens.accessToken(auth, userId)}` };
};

export const createProxyHandler = (deps: ProxyHandlerDeps) => {
  const { loader, tokens, agent, metrics, log, guard, timeoutMs, exchangeTimeoutMs } = deps;

  return async (req: IncomingMessage, res: ServerResponse, ctx: ProxyRequestContext): Promise<void> => {
    try {
      const target = readProxyTarget(req);
      if (target.usage === 'server' && !ctx.caller.roles.has('connector:server')) {
        throw new ForbiddenError('The server usage of a connector needs the connector:server token role.');
      }
      const connector = await loader.load(ctx.environmentId, ctx.connectorId, target.usage);
      // Refuse before reading the body or fetching a token for a target that will never be called.
      assertTargetAllowed(target.url, connector.allowedDomains, guard);
      const headers = outgoingHeaders(req, connector);
      const body = await readRequestBody(req);
      const auth = connector.auth;
      let credential: Credential | undefined = await credentialOf(auth, ctx.caller.userId, tokens);
      const observe = (status: number, seconds: number) => metrics.upstream(connector.id, status, seconds);
      const send = () =>
        sendUpstream(
          {
            url: target.url,
            method: target.method,
            headers,
            body,
            credential,
            sharedHeaders: connector.sharedHeaders,
            allowedDomains: connector.allowedDomains,
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
          const renewed = await tokens.renew(auth, ctx.caller.userId, rejected).catch((error: unknown) => {
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
          tokens.renew(auth, ctx.caller.userId, rejected).catch(() => {});
        }
        if (response.statusCode === 401 && response.credentialSent) {
          unauthorized = `${auth.type}, ${connector.id}`;
        }
      }
      const outgoing = responseHeaders(response.headers);
      if (unauthorized !== undefined) outgoing['x-grafx-unauthorized'] = unauthorized;
      res.writeHead(response.statusCode, outgoing);
      response.forward(res, (reason) =>
        log.debug({ traceId: ctx.traceId, reason }, 'proxied response ended early'),
      );
    } catch (error) {
      // The caller's body may still be arriving; it is not wanted any more.
      if (!req.readableEnded) req.resume();
      writeProblem(res, error, ctx.traceId, log);
    }
  };
};
