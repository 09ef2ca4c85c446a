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

/** RFC 6749 §5.2's error codes and the like: anything else a provider puts in `error` is free text. */
const OAUTH_ERROR_CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The `error` value of a token error response as callers and logs may see it: the value itself only when it is a
 * code (`^[A-Za-z0-9_.-]{1,64}$`), else `unrecognised error text`. A provider that reflects its request into `error`
 * (a password, the client's Basic credentials) thus has nothing of it repeated, not even a prefix, and quotes cannot
 * break out of the message. `error_description` and `error_uri` are never used.
 */
export const oauthErrorCode = (value: string): string =>
  OAUTH_ERROR_CODE.test(value) ? value : 'unrecognised error text';

/** A refused client's error body is read this far and this long at most: it is only searched for its `error`. */
const CHALLENGE_BODY_LIMIT = 16 * 1024;
const CHALLENGE_BODY_MS = 1000;

const boundedText = async (response: Response): Promise<string> => {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const timer = setTimeout(() => void reader.cancel().catch(() => {}), CHALLENGE_BODY_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > CHALLENGE_BODY_LIMIT) {
        await reader.cancel();
        return '';
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/**
 * The OAuth `error` of a token endpoint that refused the client with a challenge (401, RFC 6749 §5.2 `invalid_client`):
 * the challenge's own `error` parameter, else the one of its JSON body, which openid-client leaves unread.
 */
const challengeErrorCode = async (challenge: WWWAuthenticateChallengeError): Promise<string | undefined> => {
  const inHeader = challenge.cause.find((c) => c.parameters.error)?.parameters.error;
  if (inHeader) return inHeader;
  try {
    const body: unknown = JSON.parse(await boundedText(challenge.response));
    const code = (body as { error?: unknown } | null)?.error;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
};

/** A token response whose `token_type` is not `Bearer` (RFC 6750), the only kind the proxy can send. */
export const unusableTokenType = (host: string): UpstreamError =>
  new UpstreamError(
    `The token endpoint ${host} sent a token whose token_type is not Bearer: the proxy sends Bearer tokens only.`,
  );

/**
 * Turns whatever a token request threw into a ServiceError whose message names the cause and never
 * a secret: the OAuth error code, the HTTP status, "not JSON", a timeout. Always 502 (or the guard's 403).
 */
export const toTokenError = async (error: unknown, host: string): Promise<ServiceError> => {
  const chain = causes(error);
  const service = chain.find(isServiceError);
  if (service) return service;
  const oauth = chain.find((e): e is ResponseBodyError => e instanceof ResponseBodyError);
  if (oauth) {
    return new UpstreamError(
      `The token endpoint ${host} refused the request: HTTP ${oauth.status}, OAuth error "${oauthErrorCode(oauth.error)}".`,
    );
  }
  const challenge = chain.find(
    (e): e is WWWAuthenticateChallengeError => e instanceof WWWAuthenticateChallengeError,
  );
  if (challenge) {
    const code = await challengeErrorCode(challenge);
    return new UpstreamError(
      `The token endpoint ${host} refused the client: HTTP ${challenge.status} with a ${challenge.cause[0]?.scheme ?? 'WWW-Authenticate'} challenge${code === undefined ? '' : `, OAuth error "${oauthErrorCode(code)}"`}.`,
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
    case 'OAUTH_UNSUPPORTED_OPERATION':
      // What a token response can ask that openid-client does not support: a token_type it does not know.
      return unusableTokenType(host);
    case 'OAUTH_HTTP_REQUEST_FORBIDDEN':
      return new UpstreamError(`The token endpoint ${host} must use https.`);
    case 'OAUTH_TIMEOUT':
    case 'OAUTH_ABORT':
      return new UpstreamError(`The token endpoint ${host} did not answer in time.`, 'UPSTREAM_TIMEOUT');
    default:
      return new UpstreamError(`The token request to ${host} failed.`);
  }
};
