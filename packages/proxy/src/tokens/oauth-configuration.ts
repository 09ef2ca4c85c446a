import { type TokenEndpointAuthMethod, tokenEndpointAuthMethodOf } from '@platform/core';
import {
  allowInsecureRequests,
  type ClientAuth,
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

/** application/x-www-form-urlencoded (RFC 6749 appendix B): what `encodeURIComponent` escapes, and a space as `+`. */
const formEncode = (value: string): string => encodeURIComponent(value).replace(/%20/g, '+');

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1): client id and secret form-encoded, joined by a colon.
 * openid-client's own `ClientSecretBasic` also escapes `-_.!~*'()`, which form encoding leaves as they are: a token
 * endpoint that does not decode the two (hand-written ones often do not) then compares `client%2Dsecret` with the
 * `client-secret` it was given and refuses the client. Escaping no more than needed is read alike by both kinds.
 */
const clientSecretBasic =
  (secret: string): ClientAuth =>
  (_server, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(secret)}`)}`);
  };

const clientAuthentication = (method: TokenEndpointAuthMethod, secret: string): ClientAuth =>
  method === 'client_secret_post' ? ClientSecretPost(secret) : clientSecretBasic(secret);

/** The client and how it authenticates: the first `token_endpoint_auth_methods_supported` entry chooses. */
const clientOf = (
  auth: OAuthConfig,
): { clientId: string; secret: string | undefined; method: ClientAuth } => {
  switch (auth.type) {
    case 'oAuth2JwtBearer': {
      const clientId = auth.data.requestBodyParams?.client_id;
      return {
        clientId: clientId === undefined ? 'jwt-bearer' : String(clientId),
        secret: undefined,
        method: noClientAuthentication,
      };
    }
    case 'oAuth2AuthorizationCode':
      return {
        clientId: auth.data.clientId,
        secret: auth.data.clientSecret,
        method: clientAuthentication(
          tokenEndpointAuthMethodOf(
            auth.data.authorizationServerMetadata.token_endpoint_auth_methods_supported,
          ),
          auth.data.clientSecret,
        ),
      };
    case 'oAuth2ResourceOwnerPassword':
      return {
        clientId: auth.data.clientId,
        secret: auth.data.clientSecret,
        method: clientAuthentication(
          tokenEndpointAuthMethodOf(
            auth.data.authorizationServerMetadata?.token_endpoint_auth_methods_supported,
          ),
          auth.data.clientSecret,
        ),
      };
    case 'oAuth2ClientCredentials':
      return {
        clientId: auth.data.clientId,
        secret: auth.data.clientSecret,
        method: clientSecretBasic(auth.data.clientSecret),
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
  // Plain http is only ever acceptable where private networks are (tests, local development), or for the stand-in.
  const endpoints = [tokenEndpoint, server.authorization_endpoint ?? tokenEndpoint];
  const insecure = endpoints.filter((url) => new URL(url).protocol === 'http:');
  if (
    insecure.length > 0 &&
    (context.guard.allowPrivateNetworks || insecure.every((url) => context.guard.exempts(new URL(url))))
  )
    allowInsecureRequests(config);
  return config;
};
