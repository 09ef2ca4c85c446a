import { type Oidc, oidcClients } from '@platform/proxy/testing';
import { expect } from 'vitest';
import type { TestPlatform } from '../support/platform.ts';

export const ENVIRONMENT = 'acme-prod';
export const connectorsPath = `/grafx/api/v1/environment/${ENVIRONMENT}/connectors`;
export const READ_WRITE = ['platform:read', 'platform:write'];

export type Reply<T = unknown> = { status: number; headers: Headers; body: T; text: string };

export type Caller = { user: string; roles?: string[] };

export type ProxyCall = Caller & {
  /** Target URL (x-grafx-proxy-external-url). */
  url: string;
  method?: string;
  usage?: 'browser' | 'server';
  headers?: Record<string, string>;
  body?: string;
};

/**
 * REST and proxy calls against a started platform as a given user, keeping every response text so a test can
 * search them all for secrets.
 */
export const platformClient = (platform: () => TestPlatform) => {
  const responses: string[] = [];
  const tokens = new Map<string, Promise<string>>();

  const tokenOf = ({ user, roles = READ_WRITE }: Caller): Promise<string> => {
    const key = `${user} ${roles.join(',')}`;
    let token = tokens.get(key);
    if (!token) {
      token = platform().token(user, roles);
      tokens.set(key, token);
    }
    return token;
  };

  const reply = async <T>(response: Response): Promise<Reply<T>> => {
    const text = await response.text();
    responses.push(text, JSON.stringify([...response.headers]));
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  };

  const rest = async <T = unknown>(
    method: string,
    path: string,
    options: Caller & { body?: unknown },
  ): Promise<Reply<T>> => {
    const response = await platform().call(path, {
      method,
      token: await tokenOf(options),
      ...(options.body === undefined
        ? {}
        : { body: JSON.stringify(options.body), headers: { 'content-type': 'application/json' } }),
    });
    return reply<T>(response);
  };

  const proxy = async (connectorId: string, call: ProxyCall): Promise<Reply> => {
    const response = await platform().call(`${connectorsPath}/${connectorId}/proxy`, {
      method: call.method ?? 'GET',
      token: await tokenOf(call),
      headers: {
        'x-grafx-proxy-external-url': call.url,
        ...(call.usage ? { 'x-grafx-proxy-external-authentication-source': call.usage } : {}),
        ...call.headers,
      },
      ...(call.body === undefined ? {} : { body: call.body }),
    });
    return reply(response);
  };

  return { rest, proxy, responses, tokenOf };
};

/** A publish body (docs/environment-api.md) whose connector may call the loopback servers of the test. */
export const connectorBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'E2E connector',
  description: 'Calls the recording target of the end-to-end tests',
  version: '1.0.0',
  type: 'data',
  script: 'export default class Connector {}',
  allowedDomains: ['127.0.0.1'],
  supportedAuth: [
    'staticKey',
    'oAuth2ClientCredentials',
    'oAuth2AuthorizationCode',
    'oAuth2ResourceOwnerPassword',
    'oAuth2JwtBearer',
  ],
  ...overrides,
});

export const expectStatus = (reply: Reply, status: number) => {
  expect(reply.status, reply.text).toBe(status);
};

/** The browser usage's authorization-code data for the loopback OpenID provider (its `code` client, basic auth). */
export const authorizationCodeBody = (oidc: Oidc) => ({
  usage: 'browser',
  clientId: oidcClients.code.id,
  clientSecret: oidcClients.code.secret,
  scope: 'api',
  authorizationServerMetadata: {
    authorization_endpoint: oidc.authorizationEndpoint,
    token_endpoint: oidc.tokenEndpoint,
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
  },
});
