import { isServiceError, type ServiceError, UpstreamError } from '@platform/core';
import { ClientError, ResponseBodyError, WWWAuthenticateChallengeError } from 'openid-client';

const causes = (error: unknown): unknown[] => {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth++) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
};

/**
 * Turns whatever a token request threw into a ServiceError whose message names the cause and never
 * a secret: the OAuth error code, the HTTP status, "not JSON", a timeout. Always 502 (or the guard's 403).
 */
export const toTokenError = (error: unknown, host: string): ServiceError => {
  const chain = causes(error);
  const service = chain.find(isServiceError);
  if (service) return service;
  const oauth = chain.find((e): e is ResponseBodyError => e instanceof ResponseBodyError);
  if (oauth) {
    return new UpstreamError(
      `The token endpoint ${host} refused the request: HTTP ${oauth.status}, OAuth error "${oauth.error}".`,
    );
  }
  const challenge = chain.find(
    (e): e is WWWAuthenticateChallengeError => e instanceof WWWAuthenticateChallengeError,
  );
  if (challenge) {
    return new UpstreamError(
      `The token endpoint ${host} refused the client: HTTP ${challenge.status} with a ${challenge.cause[0]?.scheme ?? 'WWW-Authenticate'} challenge.`,
    );
  }
  const client = chain.find((e): e is ClientError => e instanceof ClientError);
  switch (client?.code) {
    case 'OAUTH_RESPONSE_IS_NOT_CONFORM': {
      const status = client.cause instanceof Response ? client.cause.status : undefined;
      return new UpstreamError(
        `The token endpoint ${host} answered with HTTP ${status ?? 'an unexpected status'} instead of a token.`,
      );
    }
    case 'OAUTH_RESPONSE_IS_NOT_JSON':
      return new UpstreamError(`The token endpoint ${host} did not answer with JSON (wrong content type).`);
    case 'OAUTH_PARSE_ERROR':
      return new UpstreamError(`The token endpoint ${host} answered with invalid JSON.`);
    case 'OAUTH_INVALID_RESPONSE':
      return new UpstreamError(
        `The token endpoint ${host} sent a token response that is not a standard access token response.`,
      );
    case 'OAUTH_HTTP_REQUEST_FORBIDDEN':
      return new UpstreamError(`The token endpoint ${host} must use https.`);
    case 'OAUTH_TIMEOUT':
    case 'OAUTH_ABORT':
      return new UpstreamError(`The token endpoint ${host} did not answer in time.`);
    default:
      return new UpstreamError(`The token request to ${host} failed.`);
  }
};
