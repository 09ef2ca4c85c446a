import { UpstreamError } from '@platform/core';
import {
  type Configuration,
  clientCredentialsGrant,
  genericGrantRequest,
  refreshTokenGrant,
  type TokenEndpointResponse,
} from 'openid-client';
import type { OAuthConfig } from '../auth-config.ts';
import { signJwtAssertion } from './jwt-assertion.ts';
import { toTokenError, unusableTokenType } from './token-errors.ts';

export type TokenSet = {
  accessToken: string;
  refreshToken: string | undefined;
  tokenType: string;
  /** Epoch milliseconds at which the token server says the access token expires. */
  expiresAt: number;
};

/** The authorization code exchange's inputs; the other grants need none. */
export type CodeExchange = { code: string; redirectUri: string; codeVerifier: string };

const hostOf = (auth: OAuthConfig): string =>
  new URL(
    auth.type === 'oAuth2AuthorizationCode'
      ? auth.data.authorizationServerMetadata.token_endpoint
      : auth.data.tokenEndpoint,
  ).host;

/**
 * A longer `expires_in` is taken as this (one year; docs/connector-auth.md): a huge value (1e13 s) would overflow
 * a Date, and no token is kept unchecked for longer anyway.
 */
export const maxTokenLifetimeSeconds = 365 * 24 * 60 * 60;

/** RFC 6749 appendix A.12: `access-token = 1*VSCHAR`. */
const ACCESS_TOKEN = /^[\x20-\x7e]+$/;

/** See docs/connector-auth.md rule 5: `expires_in` is mandatory, although openid-client accepts a response without it. */
const toTokenSet = (response: TokenEndpointResponse, host: string, previousRefresh?: string): TokenSet => {
  const expiresIn = response.expires_in;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn < 0) {
    throw new UpstreamError(
      `The token endpoint ${host} sent a token response without expires_in, which every OAuth 2.0 token response must carry here.`,
    );
  }
  // openid-client takes DPoP tokens too; the proxy sends every token as `Bearer`, which such a token is not.
  if (response.token_type !== undefined && response.token_type.toLowerCase() !== 'bearer') {
    throw unusableTokenType(host);
  }
  // An access token is printable ASCII (RFC 6749 appendix A.12). Any other is refused here, before it is kept: as a
  // header value it would fail every request it went with, each answered as the target's failure, until it expired.
  if (!ACCESS_TOKEN.test(response.access_token)) {
    throw new UpstreamError(
      `The token endpoint ${host} sent an access_token that is not one: it must be printable ASCII (RFC 6749); nothing was kept.`,
    );
  }
  return {
    accessToken: response.access_token,
    // A refresh response may omit the refresh token: the earlier one then stays valid (RFC 6749 §6).
    refreshToken: response.refresh_token ?? previousRefresh,
    tokenType: response.token_type ?? 'Bearer',
    expiresAt: Date.now() + Math.min(expiresIn, maxTokenLifetimeSeconds) * 1000,
  };
};

const withScope = (scope: string | undefined): Record<string, string> => (scope ? { scope } : {});

/** Form parameters are text: a number or boolean body parameter goes as its string form (`42`, `true`). */
const asFormParameters = (params: Record<string, string | number | boolean> | undefined) =>
  Object.fromEntries(Object.entries(params ?? {}).map(([name, value]) => [name, String(value)]));

/** Runs the grant fixed by the type (docs/connector-auth.md rule 6). */
export const runGrant = async (
  auth: OAuthConfig,
  config: Configuration,
  exchange?: CodeExchange,
): Promise<TokenSet> => {
  const host = hostOf(auth);
  let response: TokenEndpointResponse;
  try {
    switch (auth.type) {
      case 'oAuth2ClientCredentials':
        response = await clientCredentialsGrant(config, withScope(auth.data.scope));
        break;
      case 'oAuth2ResourceOwnerPassword':
        response = await genericGrantRequest(config, 'password', {
          username: auth.data.username,
          password: auth.data.password,
          ...withScope(auth.data.scope),
        });
        break;
      case 'oAuth2JwtBearer': {
        const assertion = await signJwtAssertion(auth.data);
        response = await genericGrantRequest(config, 'urn:ietf:params:oauth:grant-type:jwt-bearer', {
          ...asFormParameters(auth.data.requestBodyParams),
          [auth.data.jwtTokenParamName]: assertion,
        });
        break;
      }
      case 'oAuth2AuthorizationCode':
        if (!exchange) throw new Error('the authorization code grant needs a code');
        // genericGrantRequest rather than authorizationCodeGrant: the code may arrive under a custom
        // parameter name, and state was already checked against the stored login.
        response = await genericGrantRequest(config, 'authorization_code', {
          code: exchange.code,
          redirect_uri: exchange.redirectUri,
          code_verifier: exchange.codeVerifier,
        });
        break;
    }
  } catch (error) {
    throw await toTokenError(error, host);
  }
  return toTokenSet(response, host);
};

export const runRefresh = async (
  auth: OAuthConfig,
  config: Configuration,
  refreshToken: string,
): Promise<TokenSet> => {
  const host = hostOf(auth);
  try {
    return toTokenSet(await refreshTokenGrant(config, refreshToken), host, refreshToken);
  } catch (error) {
    throw await toTokenError(error, host);
  }
};
