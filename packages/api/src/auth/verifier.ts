import { UnauthenticatedError } from '@platform/core';
import { createRemoteJWKSet, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import type { Caller } from '../services/context.ts';
import { callerFromClaims } from './caller.ts';
import { createVerifiedTokenCache } from './verified-token-cache.ts';

export const ACCEPTED_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

/** The token of an `Authorization` header. */
const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]+)\s*$/i;

/** Seconds of clock difference tolerated between the issuer and this server for `exp` and `nbf`. */
const CLOCK_TOLERANCE_SECONDS = 5;

export type TokenVerifier = {
  /** Verifies the `Authorization` header value; throws UnauthenticatedError (401). */
  verify(authorization: string | undefined): Promise<Caller>;
  /**
   * The caller of a token this verifier already verified and still accepts, without waiting; undefined for any
   * other header (`verify` then decides, and says why it refuses).
   */
  known(authorization: string): Caller | undefined;
  readonly issuer: string;
};

/** JWKS from the issuer's discovery document, fetched once and kept; jose refreshes keys on an unknown `kid`. */
const discoveredKeys = (issuer: string): JWTVerifyGetKey => {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const load = async (): Promise<JWTVerifyGetKey> => {
    const url = new URL(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`discovery answered ${response.status}`);
    const metadata = (await response.json()) as { jwks_uri?: unknown };
    if (typeof metadata.jwks_uri !== 'string') throw new Error('discovery document has no jwks_uri');
    return createRemoteJWKSet(new URL(metadata.jwks_uri), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
    });
  };
  return async (header, token) => {
    keys ??= load().catch((error: unknown) => {
      // A failed discovery is retried by the next request rather than remembered.
      keys = undefined;
      throw error;
    });
    return (await keys)(header, token);
  };
};

export const createTokenVerifier = (options: {
  issuer: string;
  audience: string;
  /** Keys known in process (the development issuer); otherwise discovered from the issuer. */
  keys?: JWTVerifyGetKey;
}): TokenVerifier => {
  const keys = options.keys ?? discoveredKeys(options.issuer);
  // A signature check costs more than the rest of a small request; a token already verified is trusted until it
  // expires (the cache never extends a token's life).
  const verified = createVerifiedTokenCache(CLOCK_TOLERANCE_SECONDS);
  // Issuer URLs are compared exactly by JWT rules, but `https://idp/` and `https://idp` name the same issuer in
  // configuration: accept the `iss` spelled either way.
  const bare = options.issuer.replace(/\/+$/, '');
  const issuers = [bare, `${bare}/`];
  return {
    issuer: options.issuer,
    known(authorization) {
      // The usual spelling needs no pattern: a token found in the cache passed BEARER when it was verified, so
      // `Bearer <that token>` is what BEARER would have read. The pattern, over a token of a kilobyte, was a
      // hundredth of a proxied request's CPU.
      if (authorization.startsWith('Bearer ')) {
        const caller = verified.get(authorization.slice(7));
        if (caller !== undefined) return caller;
      }
      const token = BEARER.exec(authorization)?.[1];
      return token === undefined ? undefined : verified.get(token);
    },
    async verify(authorization) {
      if (!authorization) throw new UnauthenticatedError('A bearer token is required.', false);
      const match = BEARER.exec(authorization);
      if (!match?.[1])
        throw new UnauthenticatedError('The Authorization header must be "Bearer <token>".', true);
      const token = match[1];
      const cached = verified.get(token);
      if (cached) return cached;
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: issuers,
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          audience: options.audience,
          algorithms: ACCEPTED_ALGORITHMS,
          // A token without exp would be accepted forever (and the verified-token cache never keeps one).
          requiredClaims: ['exp'],
        });
        const caller = callerFromClaims(payload);
        if (!caller) throw new UnauthenticatedError('The token has no valid subject.', true);
        verified.set(token, caller, payload);
        return caller;
      } catch (error) {
        if (error instanceof UnauthenticatedError) throw error;
        throw new UnauthenticatedError(describeJoseError(error), true);
      }
    },
  };
};

/** What to do about a claim the token lacks, for the claims a token must carry. */
const missingClaim: Record<string, string> = {
  exp: 'The token has no exp claim; tokens must expire.',
  aud: "The token has no aud claim; it must name the audience this API accepts (AUTH_AUDIENCE, 'platform-api' by default).",
};

const describeJoseError = (error: unknown): string => {
  if (error instanceof joseErrors.JWTExpired) return 'The token has expired.';
  if (error instanceof joseErrors.JWTClaimValidationFailed && error.reason === 'missing')
    return missingClaim[error.claim] ?? `The token has no ${error.claim} claim.`;
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `The token's ${error.claim} claim is not accepted.`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'The token signature is not valid.';
  if (error instanceof joseErrors.JWKSNoMatchingKey)
    return 'The token was not signed by a key of the issuer.';
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'The token algorithm is not accepted.';
  if (error instanceof joseErrors.JOSEError) return 'The token is not valid.';
  return 'The token could not be verified.';
};
