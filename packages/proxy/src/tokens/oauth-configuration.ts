import {
  allowInsecureRequests,
  type ClientAuth,
  ClientSecretBasic,
  ClientSecretPost,
  Configuration,
  customFetch,
} from 'openid-client';
import type { Agent } from 'undici';
import type { OAuthConfig } from '../auth-config.ts';
import type { AddressGuard } from '../net/address-guard.ts';
import { createTokenFetch } from './token-fetch.ts';

export type ConfigurationContext = {
  agent: Agent;
  guard: AddressGuard;
  timeoutMs: number;
};

/** JWT bearer authenticates with its assertion alone (RFC 7523 §2.1); `requestBodyParams` carries any client_id. */
const noClientAuthentication: ClientAuth = () => {};

export const tokenEndpointOf = (auth: OAuthConfig): string =>
  auth.type === 'oAuth2AuthorizationCode'
    ? auth.data.authorizationServerMetadata.token_endpoint
    : auth.data.tokenEndpoint;

const clientOf = (
  auth: OAuthConfig,
): { clientId: string; secret: string | undefined; method: ClientAuth } => {
  switch (auth.type) {
    case 'oAuth2JwtBearer':
      return {
        clientId: auth.data.requestBodyParams?.client_id ?? 'jwt-bearer',
        secret: undefined,
        method: noClientAuthentication,
      };
    case 'oAuth2AuthorizationCode': {
      const methods = auth.data.authorizationServerMetadata.token_endpoint_auth_methods_supported;
      const postOnly = methods.length > 0 && methods.every((m) => m === 'client_secret_post');
      const secret = auth.data.clientSecret;
      return {
        clientId: auth.data.clientId,
        secret,
        method: postOnly ? ClientSecretPost(secret) : ClientSecretBasic(secret),
      };
    }
    default:
      return {
        clientId: auth.data.clientId,
        secret: auth.data.clientSecret,
        method: ClientSecretBasic(auth.data.clientSecret),
      };
  }
};

/**
 * An openid-client Configuration from the data file alone (no discovery: the data names the endpoints).
 * The issuer is only an identifier here; ID tokens are not used (see token-fetch.ts).
 */
export const buildConfiguration = (auth: OAuthConfig, context: ConfigurationContext): Configuration => {
  const tokenEndpoint = tokenEndpointOf(auth);
  const server =
    auth.type === 'oAuth2AuthorizationCode'
      ? {
          issuer: new URL(auth.data.authorizationServerMetadata.authorization_endpoint).origin,
          authorization_endpoint: auth.data.authorizationServerMetadata.authorization_endpoint,
          token_endpoint: tokenEndpoint,
          token_endpoint_auth_methods_supported:
            auth.data.authorizationServerMetadata.token_endpoint_auth_methods_supported,
        }
      : { issuer: new URL(tokenEndpoint).origin, token_endpoint: tokenEndpoint };
  const client = clientOf(auth);
  const config = new Configuration(server, client.clientId, client.secret, client.method);
  const jsonBody =
    (auth.type === 'oAuth2ResourceOwnerPassword' && auth.data.bodyFormat === 'applicationJson') ||
    (auth.type === 'oAuth2AuthorizationCode' &&
      auth.data.specCustomization.requestContentType === 'applicationJson');
  config[customFetch] = createTokenFetch({
    agent: context.agent,
    guard: context.guard,
    timeoutMs: context.timeoutMs,
    jsonBody,
  });
  config.timeout = Math.ceil(context.timeoutMs / 1000) + 1;
  // Plain http is only ever acceptable where private networks are (tests, local development).
  const endpoints = [tokenEndpoint, server.authorization_endpoint ?? tokenEndpoint];
  if (context.guard.allowPrivateNetworks && endpoints.some((url) => new URL(url).protocol === 'http:'))
    allowInsecureRequests(config);
  return config;
};
